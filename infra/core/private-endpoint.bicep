// One private endpoint for one sub-resource (groupId) of a service, registered in its private DNS zone.

param location string
param tags object
param name string
param subnetId string
@description('Resource id of the service the endpoint reaches.')
param targetId string
@description('The sub-resource: blob, queue, table, namespace, vault, redisEnterprise.')
param groupId string
@description('Private DNS zone the endpoint registers in; empty = no zone group (a landing zone\'s policy registers it).')
param dnsZoneId string

resource endpoint 'Microsoft.Network/privateEndpoints@2024-05-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    subnet: {
      id: subnetId
    }
    privateLinkServiceConnections: [
      {
        name: name
        properties: {
          privateLinkServiceId: targetId
          groupIds: [groupId]
        }
      }
    ]
  }

  resource dns 'privateDnsZoneGroups' = if (!empty(dnsZoneId)) {
    name: 'default'
    properties: {
      privateDnsZoneConfigs: [
        {
          name: replace(groupId, '.', '-')
          properties: {
            privateDnsZoneId: dnsZoneId
          }
        }
      ]
    }
  }
}
