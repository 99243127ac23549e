// One more secret in the app's Key Vault (the webhook URL or its signing key), referenced from an app
// setting so the value never sits in the site configuration or a deployment output.

param vaultName string
param name string
@secure()
param value string

resource vault 'Microsoft.KeyVault/vaults@2024-11-01' existing = {
  name: vaultName
}

resource secret 'Microsoft.KeyVault/vaults/secrets@2024-11-01' = {
  parent: vault
  name: name
  properties: {
    value: value
  }
}

// Versionless: a rotated secret reaches the app without a redeploy.
output secretUri string = secret.properties.secretUri
