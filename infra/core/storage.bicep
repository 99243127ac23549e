// The app's own storage account (one per app: checkpoint traffic is heavy). It holds the Functions host
// state and Event Hubs checkpoints, the Durable Functions task hub (Flex Consumption supports only the
// Azure Storage backend), the deployment package container, the home activity and breaker tables, and
// the dead letters (claim check: blob container + queue), the breaker's notice ledger and the maintenance
// record (blobs that must outlive restarts and redeploys). Shared-key access is off: every client,
// the host included, uses Entra ID.

param location string
param tags object
param name string
param deploymentContainerName string
param deadLetterContainerName string
param deadLetterQueueName string
param maintenanceContainerName string
param tableNames string[]
@description('Principal id of the app identity.')
param identityPrincipalId string
@description('Object id of the deploying user or principal (data roles for inspecting dead letters); empty to skip.')
param principalId string
param principalType string
@description('Private networking: public network access off, reached through private endpoints in the app\'s virtual network.')
param publicNetworkAccessDisabled bool
@description('Log Analytics workspace that receives this resource\'s diagnostic settings.')
param logAnalyticsWorkspaceId string

resource storage 'Microsoft.Storage/storageAccounts@2025-01-01' = {
  name: name
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: { name: 'Standard_LRS' }
  properties: {
    accessTier: 'Hot'
    allowBlobPublicAccess: false
    allowSharedKeyAccess: false
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    publicNetworkAccess: publicNetworkAccessDisabled ? 'Disabled' : 'Enabled'
    networkAcls: {
      defaultAction: publicNetworkAccessDisabled ? 'Deny' : 'Allow'
      bypass: 'AzureServices'
    }
  }

  resource blobs 'blobServices' = {
    name: 'default'

    resource deployment 'containers' = {
      name: deploymentContainerName
    }

    resource deadLetters 'containers' = {
      name: deadLetterContainerName
    }

    // NOTICE_LEDGER_CONTAINER of src/notify/blobNoticeLedger.ts: what the breaker has sent per trip.
    resource notices 'containers' = {
      name: 'breakwater-notices'
    }

    resource maintenance 'containers' = {
      name: maintenanceContainerName
    }
  }

  resource queues 'queueServices' = {
    name: 'default'

    resource deadLetterQueue 'queues' = {
      name: deadLetterQueueName
    }
  }

  resource tables 'tableServices' = {
    name: 'default'
  }
}

resource appTables 'Microsoft.Storage/storageAccounts/tableServices/tables@2025-01-01' = [
  for table in tableNames: {
    parent: storage::tables
    name: table
  }
]

// Blob Data Owner (not Contributor): the host manages its own leases and containers, and Flex Consumption
// reads the deployment package with this identity.
var appRoles = {
  blobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b'
  queueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88'
  tableDataContributor: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'
}

resource appDataRoles 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for role in items(appRoles): {
    name: guid(storage.id, identityPrincipalId, role.value)
    scope: storage
    properties: {
      roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', role.value)
      principalId: identityPrincipalId
      principalType: 'ServicePrincipal'
    }
  }
]

var operatorRoles = {
  blobDataContributor: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'
  queueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88'
  tableDataContributor: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'
}

resource operatorDataRoles 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for role in items(operatorRoles): if (!empty(principalId)) {
    name: guid(storage.id, principalId, role.value)
    scope: storage
    properties: {
      roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', role.value)
      principalId: principalId
      principalType: principalType
    }
  }
]

// Metrics only: resource logs would be one row per request, and the sink alone makes 2 requests per event
// (about 290 million rows a day at the sizing scenario, docs/benchmarks.md). Add a setting with
// categoryGroup 'allLogs' on one service for a while when a request-level investigation needs it.
resource storageDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-workspace'
  scope: storage
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    metrics: [{ category: 'Transaction', enabled: true }]
  }
}

resource blobDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-workspace'
  scope: storage::blobs
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    metrics: [{ category: 'Transaction', enabled: true }]
  }
}

resource queueDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-workspace'
  scope: storage::queues
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    metrics: [{ category: 'Transaction', enabled: true }]
  }
}

resource tableDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-workspace'
  scope: storage::tables
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    metrics: [{ category: 'Transaction', enabled: true }]
  }
}

output id string = storage.id
output name string = storage.name
output blobEndpoint string = storage.properties.primaryEndpoints.blob
output queueEndpoint string = storage.properties.primaryEndpoints.queue
output tableEndpoint string = storage.properties.primaryEndpoints.table
output deploymentContainerUrl string = '${storage.properties.primaryEndpoints.blob}${deploymentContainerName}'
