// The Breakwater function app on the Flex Consumption plan (FC1), with its app settings and the one
// role that lets it switch its own trigger off and on.
//
// Flex Consumption specifics: the runtime (node 22) is chosen in functionAppConfig.runtime, not through
// FUNCTIONS_WORKER_RUNTIME / FUNCTIONS_EXTENSION_VERSION app settings (the plan rejects those); the code
// package lives in a blob container read with the managed identity (functionAppConfig.deployment); scale
// limits live in functionAppConfig.scaleAndConcurrency. The Event Hubs trigger never runs more instances
// than the hub has partitions.

param location string
param tags object
param name string
param planName string
@description('Resource id and principal id of the user-assigned identity.')
param identityId string
param identityPrincipalId string
param deploymentContainerUrl string
@minValue(40)
@maxValue(1000)
param maximumInstanceCount int
@allowed([512, 2048, 4096])
param instanceMemoryMB int
@description('Breakwater and host app settings; keys must be names from src/config/settings.ts or host settings.')
param appSettings object
@description('Extra catalogue settings (e.g. BREAKER_THRESHOLD) on top of appSettings.')
param appSettingOverrides object
@description('Subnet the app integrates with (vnetEnabled), delegated to Microsoft.App/environments; empty = none.')
param virtualNetworkSubnetId string
@description('Log Analytics workspace that receives this resource\'s diagnostic settings.')
param logAnalyticsWorkspaceId string

resource plan 'Microsoft.Web/serverfarms@2024-11-01' = {
  name: planName
  location: location
  tags: tags
  kind: 'functionapp'
  sku: {
    tier: 'FlexConsumption'
    name: 'FC1'
  }
  properties: {
    reserved: true
  }
}

resource site 'Microsoft.Web/sites@2024-11-01' = {
  name: name
  location: location
  tags: union(tags, { 'azd-service-name': 'api' })
  kind: 'functionapp,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
    }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    keyVaultReferenceIdentity: identityId
    virtualNetworkSubnetId: empty(virtualNetworkSubnetId) ? null : virtualNetworkSubnetId
    siteConfig: {
      minTlsVersion: '1.2'
      ftpsState: 'Disabled'
    }
    functionAppConfig: {
      deployment: {
        storage: {
          type: 'blobContainer'
          value: deploymentContainerUrl
          authentication: {
            type: 'UserAssignedIdentity'
            userAssignedIdentityResourceId: identityId
          }
        }
      }
      scaleAndConcurrency: {
        maximumInstanceCount: maximumInstanceCount
        instanceMemoryMB: instanceMemoryMB
      }
      runtime: {
        name: 'node'
        version: '22'
      }
      // Site update strategy: Recreate, the platform default, on purpose. Every app-settings change is a
      // site update, and the breaker's own switch is one. Recreate restarts every instance at once and
      // kills executions in flight: the app is built for that (extension 6.x keeps held batches, every
      // activity and the sink are idempotent), and the Disabled switch takes effect everywhere within
      // the restart. RollingUpdate would drain executions instead, but for up to 60 minutes instances
      // with the old setting keep running, a held batch retrying forever never drains, and the strategy
      // is in preview. Not written here: no Microsoft.Web API version known to Bicep has the property
      // yet (BCP037); `az functionapp update-strategy config show` reads it.
    }
  }
}

// A role of its own, assigned on this function app only: the breaker's ARM adapter lists the app settings
// (POST config/appsettings/list: listApplicationSettings, also the heartbeat's and watchdog's read of the
// switch) and replaces them (PUT config/appsettings: updateApplicationSettings), and nothing else; unlike
// Website Contributor it cannot stop, restart or delete the app, nor list its function keys. ARM's actions
// are per config resource, not per setting: config/list also lists connection strings and publishing
// credentials, config/write also writes the other config documents of this one app.
// No config/read: the code makes no GET on a config resource (src/control/armTriggerSwitch.ts makes the
// list POST and the PUT only).
var settingsActions = [
  'Microsoft.Web/sites/config/list/action'
  'Microsoft.Web/sites/config/write'
]

resource settingsWriter 'Microsoft.Authorization/roleDefinitions@2022-04-01' = {
  name: guid(resourceGroup().id, name, 'breakwater-app-settings')
  properties: {
    roleName: 'Breakwater app settings (${name})'
    description: 'Reads and writes the app settings of one function app (the breaker\'s trigger switch); nothing else.'
    type: 'CustomRole'
    assignableScopes: [resourceGroup().id]
    permissions: [
      {
        actions: settingsActions
        notActions: []
      }
    ]
  }
}

resource switchesOwnTrigger 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(site.id, identityPrincipalId, settingsWriter.id)
  scope: site
  properties: {
    roleDefinitionId: settingsWriter.id
    principalId: identityPrincipalId
    principalType: 'ServicePrincipal'
  }
}

// NEVER set AzureWebJobs.<FunctionName>.Disabled here (nor in appSettings or appSettingOverrides): only the
// breaker owns that switch, and a redeploy that wrote it would silently re-enable a tripped breaker.
// Worse, the appsettings PUT below replaces the whole set, so a redeploy would also *drop* a switch the
// breaker set. So the live switches are read back and carried over unchanged.
resource liveAppSettings 'Microsoft.Web/sites/config@2024-11-01' existing = {
  parent: site
  name: 'appsettings'
}

func isTriggerSwitch(key string) bool => startsWith(toLower(key), 'azurewebjobs.') && endsWith(toLower(key), '.disabled')

module settings 'app-settings.bicep' = {
  name: 'app-settings'
  params: {
    siteName: site.name
    appSettings: appSettings
    appSettingOverrides: toObject(filter(items(appSettingOverrides), s => !isTriggerSwitch(s.key)), s => s.key, s => s.value)
    liveTriggerSwitches: toObject(filter(items(liveAppSettings.list().properties), s => isTriggerSwitch(s.key)), s => s.key, s => s.value)
  }
}

// The platform's own log stream of the app (FunctionAppLogs: the same lines, at host.json's log levels,
// as Application Insights gets, also when Application Insights cannot be reached) and its metrics.
resource siteDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-workspace'
  scope: site
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: [{ category: 'FunctionAppLogs', enabled: true }]
    metrics: [{ category: 'AllMetrics', enabled: true }]
  }
}

output name string = site.name
output uri string = 'https://${site.properties.defaultHostName}'
