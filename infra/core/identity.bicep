// The app's user-assigned managed identity: every connection (storage, Event Hubs, Key Vault, ACS,
// Application Insights, ARM) authenticates as it, selected by its client id.

param location string
param tags object
param name string

resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2024-11-30' = {
  name: name
  location: location
  tags: tags
}

output id string = identity.id
output clientId string = identity.properties.clientId
output principalId string = identity.properties.principalId
