// Event Hubs namespace (Standard: a consumer group of our own needs it), the sensor-readings hub and the
// app's consumer group. Local (SAS) auth is off: the trigger and the producer use Entra ID.

param location string
param tags object
param namespaceName string
param eventHubName string
@minValue(1)
@maxValue(32)
param partitionCount int
param consumerGroupName string
@minValue(1)
@maxValue(7)
@description('How long the hub keeps events. While the breaker is open events wait in the hub: an approval later than this loses the oldest ones.')
param messageRetentionInDays int
@minValue(1)
@maxValue(40)
@description('Throughput units: each takes in 1,000 events/s or 1 MB/s (docs/benchmarks.md).')
param throughputUnits int
@minValue(0)
@maxValue(40)
@description('Auto-inflate ceiling; 0 turns auto-inflate off. Auto-inflate only ever raises the TU count.')
param maximumThroughputUnits int
@description('Principal id of the app identity, granted Azure Event Hubs Data Receiver on the hub.')
param identityPrincipalId string
@description('Object id of the deploying user or principal, granted Data Sender for the producer script; empty to skip.')
param principalId string
param principalType string
@description('Private networking: public network access off, reached through private endpoints in the app\'s virtual network.')
param publicNetworkAccessDisabled bool
@description('Log Analytics workspace that receives this resource\'s diagnostic settings.')
param logAnalyticsWorkspaceId string

resource namespace 'Microsoft.EventHub/namespaces@2024-01-01' = {
  name: namespaceName
  location: location
  tags: tags
  sku: {
    name: 'Standard'
    tier: 'Standard'
    capacity: throughputUnits
  }
  properties: {
    disableLocalAuth: true
    minimumTlsVersion: '1.2'
    publicNetworkAccess: publicNetworkAccessDisabled ? 'Disabled' : 'Enabled'
    isAutoInflateEnabled: maximumThroughputUnits > 0
    maximumThroughputUnits: maximumThroughputUnits > 0 ? max(maximumThroughputUnits, throughputUnits) : 0
  }

  resource hub 'eventhubs' = {
    name: eventHubName
    properties: {
      partitionCount: partitionCount
      messageRetentionInDays: messageRetentionInDays
    }

    resource consumerGroup 'consumergroups' = {
      name: consumerGroupName
    }
  }
}

var dataReceiver = 'a638d3c7-ab3a-418d-83e6-5f17a39d4fde'
var dataSender = '2b629674-e913-4c01-ae53-ef4638d8f975'

resource appReceives 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(namespace::hub.id, identityPrincipalId, dataReceiver)
  scope: namespace::hub
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', dataReceiver)
    principalId: identityPrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource operatorSends 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(principalId)) {
  name: guid(namespace::hub.id, principalId, dataSender)
  scope: namespace::hub
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', dataSender)
    principalId: principalId
    principalType: principalType
  }
}

// Operational, auto-scale and error logs are a few rows per management operation, not per event.
resource namespaceDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-workspace'
  scope: namespace
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: [{ categoryGroup: 'allLogs', enabled: true }]
    metrics: [{ category: 'AllMetrics', enabled: true }]
  }
}

output namespaceName string = namespace.name
output namespaceId string = namespace.id
// Host name of the namespace (e.g. <name>.servicebus.windows.net in the public cloud).
output fullyQualifiedNamespace string = split(split(namespace.properties.serviceBusEndpoint, '//')[1], ':')[0]
output eventHubName string = namespace::hub.name
output consumerGroupName string = namespace::hub::consumerGroup.name
