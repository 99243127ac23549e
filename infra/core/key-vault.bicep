// Key Vault for the app's secrets: the approval-link signing keys and, when configured, the webhook URL and
// signing key (core/key-vault-secret.bicep). App settings hold only Key Vault references, so no secret sits in the site configuration,
// in deployment outputs, or in what the breaker reads and writes back through ARM.

param location string
param tags object
param name string
@description('Principal id of the app identity, granted Key Vault Secrets User.')
param identityPrincipalId string
@description('Log Analytics workspace that receives this resource\'s diagnostic settings.')
param logAnalyticsWorkspaceId string
@description('Private networking: public network access off, reached through private endpoints in the app\'s virtual network.')
param publicNetworkAccessDisabled bool
@description('Purge protection: a deleted vault and its secrets cannot be purged before the retention ends (on for production; it can never be turned off again).')
param purgeProtection bool
@description('Object id of whoever runs `npm run verify`, granted Key Vault Secrets User to read the signing key; empty = none.')
param verifyRunnerPrincipalId string
param verifyRunnerPrincipalType string
@secure()
param approvalSigningKey string
@secure()
@description('Previous approval signing key during a rotation; empty when not rotating.')
param approvalSigningKeyPrevious string

resource vault 'Microsoft.KeyVault/vaults@2024-11-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    tenantId: tenant().tenantId
    sku: {
      family: 'A'
      name: 'standard'
    }
    enableRbacAuthorization: true
    publicNetworkAccess: publicNetworkAccessDisabled ? 'Disabled' : 'Enabled'
    enableSoftDelete: true
    // The API accepts only true or absent: false is refused.
    enablePurgeProtection: purgeProtection ? true : null
    softDeleteRetentionInDays: 7
  }
}

resource signingKey 'Microsoft.KeyVault/vaults/secrets@2024-11-01' = {
  parent: vault
  name: 'approval-signing-key'
  properties: {
    value: approvalSigningKey
  }
}

resource signingKeyPrevious 'Microsoft.KeyVault/vaults/secrets@2024-11-01' = if (!empty(approvalSigningKeyPrevious)) {
  parent: vault
  name: 'approval-signing-key-previous'
  properties: {
    value: approvalSigningKeyPrevious
  }
}

var secretsUser = '4633458b-17de-408a-b874-0445c86b69e6'

resource appReadsSecrets 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(vault.id, identityPrincipalId, secretsUser)
  scope: vault
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', secretsUser)
    principalId: identityPrincipalId
    principalType: 'ServicePrincipal'
  }
}

// Audit events: who read or changed which secret (the app resolves its references at each restart).
resource vaultDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-workspace'
  scope: vault
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: [{ categoryGroup: 'audit', enabled: true }]
    metrics: [{ category: 'AllMetrics', enabled: true }]
  }
}

resource verifyRunnerReadsSecrets 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(verifyRunnerPrincipalId)) {
  name: guid(vault.id, verifyRunnerPrincipalId, secretsUser)
  scope: vault
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', secretsUser)
    principalId: verifyRunnerPrincipalId
    principalType: verifyRunnerPrincipalType
  }
}

output id string = vault.id
output name string = vault.name
// Versionless URIs: a rotated secret reaches the app without a redeploy.
output approvalSigningKeyUri string = signingKey.properties.secretUri
// Where the previous key lives when there is one; main.bicep references it only when it passed a key.
output approvalSigningKeyPreviousUri string = '${vault.properties.vaultUri}secrets/approval-signing-key-previous'
