// Azure Managed Redis for the shared failure window (deployed only with breakerStore = 'redis').
// EnterpriseCluster presents one endpoint to a non-cluster client; the breaker's keys share one hash tag
// anyway, so OSSCluster would also work with a cluster-aware client.
// No access keys: the app's managed identity signs in with Microsoft Entra ID (REDIS_AUTH=entra: its
// token is the password, its object id the username) through the data-access policy assigned below.

param location string
param tags object
param name string
@description('Object id of the app identity: gets the default data-access policy and is the Redis username.')
param identityPrincipalId string
param skuName string = 'Balanced_B0'
@description('Private networking: public network access off, reached through private endpoints in the app\'s virtual network.')
param publicNetworkAccessDisabled bool

resource cluster 'Microsoft.Cache/redisEnterprise@2025-07-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: skuName
  }
  properties: {
    minimumTlsVersion: '1.2'
    publicNetworkAccess: publicNetworkAccessDisabled ? 'Disabled' : 'Enabled'
  }

  resource database 'databases' = {
    name: 'default'
    properties: {
      clientProtocol: 'Encrypted'
      clusteringPolicy: 'EnterpriseCluster'
      evictionPolicy: 'NoEviction'
      port: 10000
      accessKeysAuthentication: 'Disabled'
      // An open trip lives here: without persistence a restart or patch of the cache forgets it (the
      // runbook's warning). Append-only file, written every second.
      persistence: {
        aofEnabled: true
        aofFrequency: '1s'
      }
    }

    // "default" is the one built-in policy: full data access, like an access key had.
    resource appAccess 'accessPolicyAssignments' = {
      name: 'breakwaterapp'
      properties: {
        accessPolicyName: 'default'
        user: {
          objectId: identityPrincipalId
        }
      }
    }
  }
}

output id string = cluster.id
output name string = cluster.name
// Not a secret: no password, only the identity's object id as the username (REDIS_CONNECTION).
output connectionUrl string = 'rediss://${identityPrincipalId}@${cluster.properties.hostName}:10000'
