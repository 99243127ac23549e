// Breakwater: Event Hubs consumer on Azure Functions (Flex Consumption) with a circuit breaker.
// Deployed with `azd up` (azure.yaml at the repository root); see docs/operations.md.
targetScope = 'subscription'

@minLength(1)
@maxLength(64)
@description('Name of the azd environment: part of every resource name and the azd-env-name tag.')
param environmentName string

@minLength(1)
@description('Region of every regional resource; it must offer the Flex Consumption plan.')
param location string

@description('Object id of the user or principal running azd: gets Event Hubs Data Sender (producer script) and storage data roles (dead letters). Empty to skip.')
param principalId string = ''

@allowed(['User', 'ServicePrincipal', 'Group'])
param principalType string = 'User'

@allowed(['table', 'redis'])
@description('BREAKER_STORE: where the shared failure window lives. redis also deploys Azure Managed Redis.')
param breakerStore string = 'table'

@secure()
@minLength(32)
@description('APPROVAL_SIGNING_KEY: HMAC key of the emailed approval links. Keep it stable across deployments, or pending links stop working.')
param approvalSigningKey string

@secure()
@description('APPROVAL_SIGNING_KEY_PREVIOUS: the key being rotated away from; empty when not rotating.')
param approvalSigningKeyPrevious string = ''

@minLength(3)
@description('APPROVERS: operators emailed when the breaker trips, separated by ; or ,.')
param approvers string

@description('EVENTHUB_NAME')
param eventHubName string = 'sensor-readings'

@minValue(1)
@maxValue(32)
@description('Partitions of the hub: the upper bound of consumer parallelism. Fixed once created on Standard.')
param eventHubPartitionCount int = 16

@minValue(1)
@maxValue(40)
@description('Throughput units of the Event Hubs namespace: the scenario (100,000 homes, one reading a minute, about 1,700 events/s) needs 2 (docs/benchmarks.md).')
param eventHubThroughputUnits int = 2

@minValue(0)
@maxValue(40)
@description('Auto-inflate ceiling of the namespace (0 = off): headroom for bursts and catching up after a trip.')
param eventHubMaxThroughputUnits int = 4

@minValue(1)
@maxValue(7)
@description('Days the hub keeps events (Standard tier: at most 7). Held events wait in the hub while the breaker is open, so this bounds how long an approval may take.')
param eventHubRetentionDays int = 7

@description('EVENTHUB_CONSUMER_GROUP')
param consumerGroupName string = 'breakwater'

@description('SINK_TABLE_NAME')
param sinkTableName string = 'HomeActivity'

@description('BREAKER_TABLE_NAME')
param breakerTableName string = 'BreakerState'

@description('DEAD_LETTER_CONTAINER')
param deadLetterContainerName string = 'dead-letters'

@description('DEAD_LETTER_QUEUE')
param deadLetterQueueName string = 'dead-letters'

@description('MAINTENANCE_CONTAINER (keep it between deployments: the maintenance record lives there)')
param maintenanceContainerName string = 'breakwater-maintenance'

@description('Data location of Azure Communication Services, e.g. United States, Europe, UK.')
param communicationDataLocation string = 'United States'

@description('Resource id of a verified ACS custom email domain to send the approval emails from (an Azure-managed domain sends at most 30 a minute and 100 an hour); empty = Azure-managed.')
param emailCustomDomainId string = ''

@description('Sender user name on emailCustomDomainId.')
param emailSenderUsername string = 'DoNotReply'

@minValue(40)
@maxValue(1000)
param maximumInstanceCount int = 100

@allowed([512, 2048, 4096])
param instanceMemoryMB int = 2048

@secure()
@description('WEBHOOK_URL: webhook for breaker notices beside the email (paging, Teams, Slack); empty = none. Stored in Key Vault.')
param webhookUrl string = ''

@allowed(['json', 'teams', 'slack'])
@description('WEBHOOK_FORMAT')
param webhookFormat string = 'json'

@secure()
@description('WEBHOOK_SIGNING_KEY: HMAC key that signs each webhook (required for json). Stored in Key Vault.')
param webhookSigningKey string = ''

@description('Turn on App Service authentication (Microsoft Entra ID) and APPROVAL_REQUIRE_SIGNED_IN: only a signed-in user listed in approvers may approve a restart. Needs authClientId.')
param enableAppServiceAuth bool = false

@description('Client id of the Entra app registration for App Service authentication (see infra/app/app-auth.bicep); used only with enableAppServiceAuth.')
param authClientId string = ''

@minValue(1)
@description('Alert rule: dead letters waiting above which the approvers are alerted.')
param alertDeadLetterThreshold int = 100

@minValue(1)
@maxValue(99)
@description('Alert rule: share of the hub\'s retention, in percent, the oldest waiting event may have spent before the approvers are alerted (50: half of eventHubRetentionDays).')
param alertHeldRetentionPercent int = 50

@minValue(1)
@description('Alert rule: events waiting behind the checkpoints (consumer lag) for 15 minutes while CLOSED above which the consumer-lag alert fires (default: about a minute of the sizing scenario).')
param alertLagEvents int = 100000

@minValue(5)
@description('Alert rule: minutes a partition may have events waiting without its checkpoint moving, while CLOSED, before the trigger-stalled alert fires.')
param alertStalledMinutes int = 10

@minValue(1)
@description('Alert rule: hours in maintenance mode (the trigger stopped on purpose) before the maintenance-too-long alert fires.')
param alertMaintenanceHours int = 24

@description('Resource ids of the team\'s own action groups (pager, SMS, ITSM): every alert notifies them besides the approvers.')
param alertActionGroupIds string[] = []

@description('alertActionGroupIds as text, comma-separated (azd env set ALERT_ACTION_GROUP_IDS "id1,id2"); added to alertActionGroupIds.')
param alertActionGroupIdList string = ''

@secure()
@description('Optional webhook receiving every alert (common alert schema); empty = none.')
param alertWebhookUrl string = ''

@description('Published location of docs/telemetry.md (your repository\'s web view of it; the preprovision hook derives it from the git remote): each alert links to its own section there. Empty = the relative docs/telemetry.md.')
param alertRunbookBaseUrl string = ''

@description('Grant the deploying principal (principalId) Key Vault Secrets User on the vault, which `npm run verify` needs to sign approvals (GRANT_VERIFY_ROLE). Sandbox environments only.')
param grantVerifyRunnerRole bool = false

@description('Marks this deployment as a sandbox `npm run verify` may run its outage on (app setting BREAKWATER_VERIFY_ALLOWED=true; verify refuses any app without it). Off by default: never on production.')
param allowVerify bool = false

@description('Key Vault purge protection (on for production). Once on it cannot be turned off, and `azd down --purge` cannot purge the vault: its name stays taken for 7 days. Set false for throwaway environments.')
param keyVaultPurgeProtection bool = true

@description('Private networking: the app joins a virtual network and reaches storage, Event Hubs, Key Vault and Redis through private endpoints; their public network access is off (for subscriptions whose policy denies it). The producer script and dead-letter commands then work only from inside the network.')
param vnetEnabled bool = false

@description('Address space of the virtual network vnetEnabled creates (not used with existingAppSubnetId). Pick one that does not overlap the networks it is peered with.')
param vnetAddressPrefix string = '10.0.0.0/16'

@description('Prefix of the app (integration) subnet inside vnetAddressPrefix: /27 at least for Flex Consumption; a /24 leaves room for scale-out.')
param appSubnetPrefix string = '10.0.1.0/24'

@description('Prefix of the private-endpoint subnet inside vnetAddressPrefix.')
param privateEndpointSubnetPrefix string = '10.0.2.0/24'

@description('Bring your own network: resource id of an existing subnet, delegated to Microsoft.App/environments, for the app\'s VNet integration. With existingPrivateEndpointSubnetId it turns private networking on and no virtual network is created.')
param existingAppSubnetId string = ''

@description('Bring your own network: resource id of an existing subnet for the private endpoints (used with existingAppSubnetId).')
param existingPrivateEndpointSubnetId string = ''

@description('Bring your own network: resource ids of existing private DNS zones by endpoint kind (keys blob, queue, table, namespace, vault, redisEnterprise). Non-empty: no privatelink.* zone is created and each endpoint registers in the given zone. Empty with existing subnets: the endpoints get no zone group (for landing zones whose policy registers them centrally).')
param existingPrivateDnsZoneIds object = {}

@description('existingPrivateDnsZoneIds as JSON text (azd env set EXISTING_PRIVATE_DNS_ZONE_IDS \'{"blob":"/subscriptions/…"}\'); used when existingPrivateDnsZoneIds is empty.')
param existingPrivateDnsZoneIdsJson string = ''

@description('Further Breakwater settings by catalogue name (src/config/settings.ts), e.g. { "BREAKER_THRESHOLD": "100" }. Unset settings take the catalogue defaults.')
param appSettingOverrides object = {}

var abbrs = loadJsonContent('abbreviations.json')
var resourceToken = toLower(uniqueString(subscription().id, environmentName, location))
var tags = { 'azd-env-name': environmentName }
var functionAppName = '${abbrs.webSitesFunctions}api-${resourceToken}'
var deploymentContainerName = 'app-package-${take(resourceToken, 7)}'

resource rg 'Microsoft.Resources/resourceGroups@2024-03-01' = {
  name: '${abbrs.resourcesResourceGroups}${environmentName}'
  location: location
  tags: tags
}

module identity 'core/identity.bicep' = {
  name: 'identity'
  scope: rg
  params: {
    location: location
    tags: tags
    name: '${abbrs.managedIdentityUserAssignedIdentities}api-${resourceToken}'
  }
}

module monitoring 'core/monitoring.bicep' = {
  name: 'monitoring'
  scope: rg
  params: {
    location: location
    tags: tags
    logAnalyticsName: '${abbrs.operationalInsightsWorkspaces}${resourceToken}'
    applicationInsightsName: '${abbrs.insightsComponents}${resourceToken}'
    identityPrincipalId: identity.outputs.principalId
  }
}

module alerts 'core/alerts.bicep' = {
  name: 'alerts'
  scope: rg
  params: {
    location: location
    tags: tags
    applicationInsightsName: monitoring.outputs.applicationInsightsName
    actionGroupName: '${abbrs.insightsActionGroups}${resourceToken}'
    approvers: approvers
    deadLetterThreshold: alertDeadLetterThreshold
    heldRetentionPercent: alertHeldRetentionPercent
    retentionHours: eventHubRetentionDays * 24
    lagEventsThreshold: alertLagEvents
    stalledMinutesThreshold: alertStalledMinutes
    maintenanceHoursThreshold: alertMaintenanceHours
    actionGroupIds: concat(
      alertActionGroupIds,
      map(filter(split(alertActionGroupIdList, ','), id => !empty(trim(id))), id => trim(id))
    )
    alertWebhookUrl: alertWebhookUrl
    runbookBaseUrl: empty(alertRunbookBaseUrl) ? 'docs/telemetry.md' : alertRunbookBaseUrl
    eventHubNamespaceId: eventHubs.outputs.namespaceId
  }
}

// The on-call's workbook over the same telemetry (core/workbook.json).
module workbook 'core/workbook.bicep' = {
  name: 'workbook'
  scope: rg
  params: {
    location: location
    tags: tags
    applicationInsightsName: monitoring.outputs.applicationInsightsName
    displayName: 'Breakwater (${environmentName})'
  }
}

// Private DNS zones of the private endpoints (the public cloud's and the others' suffixes alike).
var storageSuffix = environment().suffixes.storage
var privateDnsZones = {
  blob: 'privatelink.blob.${storageSuffix}'
  queue: 'privatelink.queue.${storageSuffix}'
  table: 'privatelink.table.${storageSuffix}'
  namespace: 'privatelink.servicebus.windows.net'
  vault: 'privatelink${replace(environment().suffixes.keyvaultDns, '.vault.', '.vaultcore.')}'
  redisEnterprise: 'privatelink.redis.azure.net'
}

// Private networking is on with vnetEnabled or with a brought network (existing subnets); the template
// creates the network and its DNS zones only when none is brought.
var bringsNetwork = !empty(existingAppSubnetId) && !empty(existingPrivateEndpointSubnetId)
var dnsZoneIds = empty(existingPrivateDnsZoneIds) && !empty(existingPrivateDnsZoneIdsJson)
  ? json(existingPrivateDnsZoneIdsJson)
  : existingPrivateDnsZoneIds
var bringsDnsZones = !empty(dnsZoneIds)
var privateNetworking = vnetEnabled || bringsNetwork

module network 'core/network.bicep' = if (privateNetworking && !bringsNetwork) {
  name: 'network'
  scope: rg
  params: {
    location: location
    tags: tags
    name: '${abbrs.networkVirtualNetworks}${resourceToken}'
    addressPrefix: vnetAddressPrefix
    appSubnetPrefix: appSubnetPrefix
    privateEndpointSubnetPrefix: privateEndpointSubnetPrefix
    privateDnsZoneNames: bringsDnsZones
      ? []
      : breakerStore == 'redis'
          ? map(items(privateDnsZones), z => z.value)
          : map(filter(items(privateDnsZones), z => z.key != 'redisEnterprise'), z => z.value)
  }
}

module storage 'core/storage.bicep' = {
  name: 'storage'
  scope: rg
  params: {
    location: location
    tags: tags
    name: '${abbrs.storageStorageAccounts}${resourceToken}'
    deploymentContainerName: deploymentContainerName
    deadLetterContainerName: deadLetterContainerName
    deadLetterQueueName: deadLetterQueueName
    maintenanceContainerName: maintenanceContainerName
    tableNames: [sinkTableName, breakerTableName]
    publicNetworkAccessDisabled: privateNetworking
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    identityPrincipalId: identity.outputs.principalId
    principalId: principalId
    principalType: principalType
  }
}

module eventHubs 'core/event-hubs.bicep' = {
  name: 'event-hubs'
  scope: rg
  params: {
    location: location
    tags: tags
    namespaceName: '${abbrs.eventHubNamespaces}${resourceToken}'
    eventHubName: eventHubName
    partitionCount: eventHubPartitionCount
    messageRetentionInDays: eventHubRetentionDays
    throughputUnits: eventHubThroughputUnits
    maximumThroughputUnits: eventHubMaxThroughputUnits
    consumerGroupName: consumerGroupName
    publicNetworkAccessDisabled: privateNetworking
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    identityPrincipalId: identity.outputs.principalId
    principalId: principalId
    principalType: principalType
  }
}

module keyVault 'core/key-vault.bicep' = {
  name: 'key-vault'
  scope: rg
  params: {
    location: location
    tags: tags
    name: '${abbrs.keyVaultVaults}${resourceToken}'
    identityPrincipalId: identity.outputs.principalId
    approvalSigningKey: approvalSigningKey
    approvalSigningKeyPrevious: approvalSigningKeyPrevious
    publicNetworkAccessDisabled: privateNetworking
    purgeProtection: keyVaultPurgeProtection
    verifyRunnerPrincipalId: grantVerifyRunnerRole ? principalId : ''
    verifyRunnerPrincipalType: principalType

    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
  }
}

module redis 'core/redis.bicep' = if (breakerStore == 'redis') {
  name: 'redis'
  scope: rg
  params: {
    location: location
    tags: tags
    name: '${abbrs.cacheRedisEnterprise}${resourceToken}'
    identityPrincipalId: identity.outputs.principalId
    publicNetworkAccessDisabled: privateNetworking
  }
}

module communication 'core/communication.bicep' = {
  name: 'communication'
  scope: rg
  params: {
    tags: tags
    communicationName: '${abbrs.communicationCommunicationServices}${resourceToken}'
    emailServiceName: '${abbrs.communicationEmailServices}${resourceToken}'
    dataLocation: communicationDataLocation
    identityPrincipalId: identity.outputs.principalId
    customDomainId: emailCustomDomainId
    senderUsername: emailSenderUsername
  }
}

module webhookUrlSecret 'core/key-vault-secret.bicep' = if (!empty(webhookUrl)) {
  name: 'webhook-url-secret'
  scope: rg
  params: {
    vaultName: keyVault.outputs.name
    name: 'webhook-url'
    value: webhookUrl
  }
}

module webhookKeySecret 'core/key-vault-secret.bicep' = if (!empty(webhookSigningKey)) {
  name: 'webhook-key-secret'
  scope: rg
  params: {
    vaultName: keyVault.outputs.name
    name: 'webhook-signing-key'
    value: webhookSigningKey
  }
}

// An app setting that the platform resolves from Key Vault with the app's identity.
func keyVaultReference(secretUri string) string => '@Microsoft.KeyVault(SecretUri=${secretUri})'

module functionApp 'app/function-app.bicep' = {
  name: 'function-app'
  scope: rg
  params: {
    location: location
    tags: tags
    name: functionAppName
    planName: '${abbrs.webServerFarms}${resourceToken}'
    identityId: identity.outputs.id
    identityPrincipalId: identity.outputs.principalId
    deploymentContainerUrl: storage.outputs.deploymentContainerUrl
    maximumInstanceCount: maximumInstanceCount
    instanceMemoryMB: instanceMemoryMB
    appSettingOverrides: appSettingOverrides
    virtualNetworkSubnetId: bringsNetwork
      ? existingAppSubnetId
      : privateNetworking ? network!.outputs.appSubnetId : ''
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    // Names are those of src/config/settings.ts and of the Functions host; test/deploy checks them.
    // Never add AzureWebJobs.<FunctionName>.Disabled: only the breaker sets it, and a redeploy that wrote
    // it would silently re-enable a tripped breaker (app/function-app.bicep carries the live value over).
    // Settings left out here take their catalogue default, or are auto-detected in Azure (PUBLIC_BASE_URL
    // from WEBSITE_HOSTNAME). Empty values count as unset.
    appSettings: {
      // Functions host: identity-based connections (the host reads these, not our code).
      AzureWebJobsStorage__credential: 'managedidentity'
      AzureWebJobsStorage__clientId: identity.outputs.clientId
      AzureWebJobsStorage__blobServiceUri: storage.outputs.blobEndpoint
      AzureWebJobsStorage__queueServiceUri: storage.outputs.queueEndpoint
      AzureWebJobsStorage__tableServiceUri: storage.outputs.tableEndpoint
      EventHubConnection__fullyQualifiedNamespace: eventHubs.outputs.fullyQualifiedNamespace
      EventHubConnection__credential: 'managedidentity'
      EventHubConnection__clientId: identity.outputs.clientId
      APPLICATIONINSIGHTS_CONNECTION_STRING: monitoring.outputs.connectionString
      APPLICATIONINSIGHTS_AUTHENTICATION_STRING: 'ClientId=${identity.outputs.clientId};Authorization=AAD'

      // Breakwater (src/config/settings.ts).
      EVENTHUB_NAME: eventHubs.outputs.eventHubName
      EVENTHUB_CONSUMER_GROUP: eventHubs.outputs.consumerGroupName
      // The hub's retention, for the "time left" on the approval page (AMQP does not report it).
      EVENTHUB_RETENTION_HOURS: string(eventHubRetentionDays * 24)
      ENVIRONMENT_NAME: environmentName
      SINK_TABLE_NAME: sinkTableName
      BREAKER_TABLE_NAME: breakerTableName
      DEAD_LETTER_CONTAINER: deadLetterContainerName
      DEAD_LETTER_QUEUE: deadLetterQueueName
      MAINTENANCE_CONTAINER: maintenanceContainerName
      BREAKER_STORE: breakerStore
      REDIS_CONNECTION: breakerStore == 'redis' ? redis!.outputs.connectionUrl : ''
      REDIS_AUTH: 'entra'
      TRIGGER_CONTROL: 'arm'
      // Explicit rather than parsed from WEBSITE_OWNER_NAME, whose shape differs between plans.
      AZURE_SUBSCRIPTION_ID: subscription().subscriptionId
      AZURE_RESOURCE_GROUP: rg.name
      AZURE_FUNCTIONAPP_NAME: functionAppName
      AZURE_CLIENT_ID: identity.outputs.clientId
      EMAIL_PROVIDER: 'acs'
      ACS_ENDPOINT: communication.outputs.endpoint
      EMAIL_SENDER: communication.outputs.senderAddress
      APPROVERS: approvers
      APPROVAL_REQUIRE_SIGNED_IN: enableAppServiceAuth ? 'true' : 'false'
      // Read by `npm run verify` through ARM only (docs/demo.md); the app ignores it.
      BREAKWATER_VERIFY_ALLOWED: allowVerify ? 'true' : 'false'
      WEBHOOK_URL: empty(webhookUrl) ? '' : keyVaultReference(webhookUrlSecret!.outputs.secretUri)
      WEBHOOK_FORMAT: webhookFormat
      WEBHOOK_SIGNING_KEY: empty(webhookSigningKey) ? '' : keyVaultReference(webhookKeySecret!.outputs.secretUri)
      APPROVAL_SIGNING_KEY: keyVaultReference(keyVault.outputs.approvalSigningKeyUri)
      APPROVAL_SIGNING_KEY_PREVIOUS: empty(approvalSigningKeyPrevious)
        ? ''
        : keyVaultReference(keyVault.outputs.approvalSigningKeyPreviousUri)
    }
  }
}

// The private endpoints of private networking: one per sub-resource the app reaches (Redis only when it is the store).
var privateEndpointGroups = concat(
  ['blob', 'queue', 'table', 'namespace', 'vault'],
  breakerStore == 'redis' ? ['redisEnterprise'] : []
)

module privateEndpoints 'core/private-endpoint.bicep' = [
  for groupId in privateEndpointGroups: if (privateNetworking) {
    name: 'private-endpoint-${groupId}'
    scope: rg
    params: {
      location: location
      tags: tags
      name: '${abbrs.networkPrivateEndpoints}${groupId}-${resourceToken}'
      subnetId: bringsNetwork ? existingPrivateEndpointSubnetId : network!.outputs.privateEndpointSubnetId
      targetId: groupId == 'namespace'
        ? eventHubs.outputs.namespaceId
        : groupId == 'vault' ? keyVault.outputs.id : groupId == 'redisEnterprise' ? redis!.outputs.id : storage.outputs.id
      groupId: groupId
      dnsZoneId: bringsDnsZones
        ? dnsZoneIds[groupId]
        : bringsNetwork ? '' : network!.outputs.zoneIds[privateDnsZones[groupId]]
    }
  }
]

module appAuth 'app/app-auth.bicep' = if (enableAppServiceAuth) {
  name: 'app-auth'
  scope: rg
  params: {
    siteName: functionApp.outputs.name
    clientId: authClientId
    tenantId: tenant().tenantId
  }
}

// Outputs azd stores in .azure/<env>/.env (never a secret).
output AZURE_LOCATION string = location
output AZURE_TENANT_ID string = tenant().tenantId
output AZURE_RESOURCE_GROUP string = rg.name
output AZURE_FUNCTION_APP_NAME string = functionApp.outputs.name
output SERVICE_API_NAME string = functionApp.outputs.name
output SERVICE_API_URI string = functionApp.outputs.uri
output AZURE_CLIENT_ID string = identity.outputs.clientId
output AZURE_STORAGE_ACCOUNT_NAME string = storage.outputs.name
output AZURE_KEY_VAULT_NAME string = keyVault.outputs.name
output APPLICATIONINSIGHTS_NAME string = monitoring.outputs.applicationInsightsName
output EVENTHUB_FULLY_QUALIFIED_NAMESPACE string = eventHubs.outputs.fullyQualifiedNamespace
output EVENTHUB_NAME string = eventHubs.outputs.eventHubName
output EVENTHUB_CONSUMER_GROUP string = eventHubs.outputs.consumerGroupName
output BREAKER_STORE string = breakerStore
