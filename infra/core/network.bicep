// The virtual network of vnetEnabled (when no existing subnets are given): one subnet the function app
// integrates with (delegated to Microsoft.App/environments, as Flex Consumption requires) and one for the
// private endpoints of the storage account, Event Hubs, Key Vault and Redis, each with its own network
// security group (landing-zone policy Deny-Subnet-Without-Nsg refuses a subnet without one), and the
// private DNS zones that make the services' usual host names resolve to those endpoints from inside.

param location string
param tags object
param name string
@description('Address space of the network, e.g. 10.0.0.0/16.')
param addressPrefix string
@description('Prefix of the app (integration) subnet, inside addressPrefix.')
param appSubnetPrefix string
@description('Prefix of the private-endpoint subnet, inside addressPrefix.')
param privateEndpointSubnetPrefix string
@description('Private DNS zone names to create and link to the network (privatelink.*); empty when the zones are brought.')
param privateDnsZoneNames string[]

// Default rules only (inside the network and Azure's load balancer in; outbound open): the NSGs are
// there for policy and for the team's own rules, not to filter the app's egress.
resource appNsg 'Microsoft.Network/networkSecurityGroups@2024-05-01' = {
  name: '${name}-app-nsg'
  location: location
  tags: tags
  properties: {
    securityRules: []
  }
}

resource privateEndpointNsg 'Microsoft.Network/networkSecurityGroups@2024-05-01' = {
  name: '${name}-pe-nsg'
  location: location
  tags: tags
  properties: {
    securityRules: []
  }
}

resource vnet 'Microsoft.Network/virtualNetworks@2024-05-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    addressSpace: {
      addressPrefixes: [addressPrefix]
    }
    subnets: [
      {
        name: 'app'
        properties: {
          addressPrefix: appSubnetPrefix
          networkSecurityGroup: {
            id: appNsg.id
          }
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
          addressPrefix: privateEndpointSubnetPrefix
          networkSecurityGroup: {
            id: privateEndpointNsg.id
          }
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
