// The on-call's workbook over Application Insights: breaker state over time, failures in the window,
// held events and time to the first loss per partition, dead letters by reason, trips with their
// approvals. The queries live in workbook.json (test/deploy/workbook.test.ts parses each with the KQL
// language service and ties its event names and fields to src/kernel/telemetryNames.ts).

param location string
param tags object
param applicationInsightsName string
@description('Display name of the workbook in the portal.')
param displayName string

resource applicationInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: applicationInsightsName
}

resource workbook 'Microsoft.Insights/workbooks@2023-06-01' = {
  // A workbook's name is a GUID; this one is stable per Application Insights resource.
  name: guid(applicationInsights.id, 'breakwater-workbook')
  location: location
  tags: tags
  kind: 'shared'
  properties: {
    displayName: displayName
    category: 'workbook'
    sourceId: applicationInsights.id
    serializedData: loadTextContent('workbook.json')
  }
}

output workbookId string = workbook.id
