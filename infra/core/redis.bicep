// Azure Managed Redis for the shared failure window (deployed only with breakerStore = 'redis').
// EnterpriseCluster presents one endpoint to a non-cluster client; the breaker's keys share one hash tag
// anyway, so OSSCluster would also work with a cluster-aware client.
// The access key goes straight from listKeys() into a Key Vault secret: it is never a module output.

param location string
param tags object
param name string
@description('Key Vault that receives the redis-connection secret.')
param keyVaultName string
param skuName string = 'Balanced_B0'

resource cluster 'Microsoft.Cache/redisEnterprise@2025-04-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: skuName
  }
  properties: {
    minimumTlsVersion: '1.2'
  }

  resource database 'databases' = {
    name: 'default'
    properties: {
      clientProtocol: 'Encrypted'
      clusteringPolicy: 'EnterpriseCluster'
      evictionPolicy: 'NoEviction'
      port: 10000
      // The app connects with a redis URL and an access key (REDIS_CONNECTION).
      accessKeysAuthentication: 'Enabled'
    }
  }
}

resource vault 'Microsoft.KeyVault/vaults@2024-11-01' existing = {
  name: keyVaultName
}

resource connectionSecret 'Microsoft.KeyVault/vaults/secrets@2024-11-01' = {
  parent: vault
  name: 'redis-connection'
  properties: {
    // ioredis decodes the password part of the URL, and access keys may hold '/', '+' and '='.
    value: 'rediss://:${uriComponent(cluster::database.listKeys().primaryKey)}@${cluster.properties.hostName}:10000'
  }
}

output name string = cluster.name
output connectionSecretUri string = connectionSecret.properties.secretUri
