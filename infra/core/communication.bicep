// Azure Communication Services for the breaker's emails: an Email Communication Service with an
// Azure-managed domain, linked to a Communication Services resource the app calls with its identity.
// An Azure-managed domain comes with one sender, DoNotReply@<generated subdomain>; custom sender names
// need a custom (verified) domain, so the sender address is derived from the domain here. An
// Azure-managed domain has a low sending limit; customDomainId links a domain the team has verified
// (its own SPF/DKIM records) instead, and the approval emails come from senderUsername@that domain.

param tags object
param communicationName string
param emailServiceName string
@description('Where ACS stores data at rest, e.g. United States, Europe.')
param dataLocation string
@description('Principal id of the app identity, granted Communication and Email Service Owner on the ACS resource.')
param identityPrincipalId string
@description('Resource id of a verified custom domain (Microsoft.Communication/emailServices/domains, same data location) to send from; empty = the Azure-managed domain.')
param customDomainId string
@description('Sender user name on the custom domain (it must exist on that domain; DoNotReply always does).')
param senderUsername string

resource emailService 'Microsoft.Communication/emailServices@2023-04-01' = {
  name: emailServiceName
  location: 'global'
  tags: tags
  properties: {
    dataLocation: dataLocation
  }

  resource managedDomain 'domains' = {
    name: 'AzureManagedDomain'
    location: 'global'
    tags: tags
    properties: {
      domainManagement: 'AzureManaged'
      userEngagementTracking: 'Disabled'
    }
  }
}

var useCustomDomain = !empty(customDomainId)
var customDomainParts = split(customDomainId, '/')

resource customDomain 'Microsoft.Communication/emailServices/domains@2023-04-01' existing = if (useCustomDomain) {
  scope: resourceGroup(customDomainParts[2], customDomainParts[4])
  name: '${customDomainParts[8]}/${customDomainParts[10]}'
}

resource communication 'Microsoft.Communication/communicationServices@2023-04-01' = {
  name: communicationName
  location: 'global'
  tags: tags
  properties: {
    dataLocation: dataLocation
    linkedDomains: [useCustomDomain ? customDomainId : emailService::managedDomain.id]
  }
}

// There is no send-only built-in role for Entra-authenticated email; this one is scoped to the ACS
// resource alone.
var emailServiceOwner = '09976791-48a7-449e-bb21-39d1a415f350'

resource appSendsEmail 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(communication.id, identityPrincipalId, emailServiceOwner)
  scope: communication
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', emailServiceOwner)
    principalId: identityPrincipalId
    principalType: 'ServicePrincipal'
  }
}

output endpoint string = 'https://${communication.properties.hostName}'
output senderAddress string = useCustomDomain
  ? '${senderUsername}@${customDomain!.properties.mailFromSenderDomain}'
  : 'DoNotReply@${emailService::managedDomain.properties.mailFromSenderDomain}'
