// The virtual network of vnetEnabled: one subnet the function app integrates with (delegated to
// Microsoft.App/environments, as Flex Consumption requires) and one for the private endpoints of the
// storage account, Event Hubs, Key Vault and Redis, with the private DNS zones that make their usual
// host names resolve to those endpoints from inside the network.

param location string
param tags object
param name string
@description('Private DNS zone names to create and link to the network (privatelink.*).')
param privateDnsZoneNames string[]

resource vnet 'Microsoft.Network/virtualNetworks@2024-05-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    addressSpace: {
      addressPrefixes: ['10.0.0.0/16']
    }
    subnets: [
      {
        name: 'app'
        properties: {
          addressPrefix: '10.0.1.0/24'
          delegations: [
            {
              name: 'flex-consumption'
              properties: {
                serviceName: 'Microsoft.App/environments'
              }
            }
          ]
        }
      }
      {
        name: 'private-endpoints'
        properties: {
          addressPrefix: '10.0.2.0/24'
          privateEndpointNetworkPolicies: 'Disabled'
        }
      }
    ]
  }
}

resource zones 'Microsoft.Network/privateDnsZones@2024-06-01' = [
  for zone in privateDnsZoneNames: {
    name: zone
    location: 'global'
    tags: tags
  }
]

resource zoneLinks 'Microsoft.Network/privateDnsZones/virtualNetworkLinks@2024-06-01' = [
  for (zone, i) in privateDnsZoneNames: {
    parent: zones[i]
    name: '${name}-link'
    location: 'global'
    tags: tags
    properties: {
      virtualNetwork: {
        id: vnet.id
      }
      registrationEnabled: false
    }
  }
]

output appSubnetId string = vnet.properties.subnets[0].id
output privateEndpointSubnetId string = vnet.properties.subnets[1].id
// Zone ids by name, for the endpoints' DNS zone groups.
output zoneIds object = toObject(privateDnsZoneNames, zone => zone, zone => resourceId('Microsoft.Network/privateDnsZones', zone))
