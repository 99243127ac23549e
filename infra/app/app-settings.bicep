// Writes the function app's settings. The appsettings resource replaces the whole set: everything the app
// needs is in appSettings, operator tweaks in appSettingOverrides, and the breaker's live trigger switches
// (AzureWebJobs.<fn>.Disabled, read from the running app by function-app.bicep) are written back as found.

param siteName string
param appSettings object
param appSettingOverrides object
@description('AzureWebJobs.<fn>.Disabled entries as the running app has them; never a value chosen here.')
param liveTriggerSwitches object

resource site 'Microsoft.Web/sites@2024-11-01' existing = {
  name: siteName
}

resource settings 'Microsoft.Web/sites/config@2024-11-01' = {
  parent: site
  name: 'appsettings'
  properties: union(appSettings, appSettingOverrides, liveTriggerSwitches)
}
