// Azure Monitor alerts for the breaker, sent to the approvers through one action group. Every rule reads
// the app's own telemetry lines (src/kernel/telemetryNames.ts: `<name> <JSON>` traces in Application
// Insights); test/deploy/alertRules.test.ts checks that each name and field queried here is one the app
// emits. Stateful rules (autoMitigate): one notification when a condition starts, one when it resolves.

param location string
param tags object
param applicationInsightsName string
param actionGroupName string
@description('APPROVERS: addresses separated by ; or , (each becomes an email receiver).')
param approvers string
@description('Dead letters waiting in the queue above which the dead-letter alert fires.')
param deadLetterThreshold int
@description('Minutes events may be held (breaker OPEN, or a batch held behind its checkpoint) before the held-events alert fires.')
param heldMinutesThreshold int

resource applicationInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: applicationInsightsName
}

var approverEmails = filter(map(split(replace(approvers, ';', ','), ','), a => trim(a)), a => !empty(a))

resource approversGroup 'Microsoft.Insights/actionGroups@2023-01-01' = {
  name: actionGroupName
  location: 'global'
  tags: tags
  properties: {
    groupShortName: 'breakwater'
    enabled: true
    emailReceivers: [
      for (email, i) in approverEmails: {
        name: 'approver-${i}'
        emailAddress: email
        useCommonAlertSchema: true
      }
    ]
  }
}

// Rows of one telemetry line, its JSON fields as `d` (the line is `<name> <JSON>`).
func telemetryRows(name string) string =>
  '(traces | where message startswith "${name} " | extend d = parse_json(substring(message, ${length(name) + 1})))'

// One query per line, so the test can match each rule's names and fields.
var rules = [
  {
    name: 'breaker-open'
    severity: 1
    description: 'The circuit breaker is OPEN: processing is stopped until an approver restarts it.'
    query: 'union (${telemetryRows('Breakwater.Heartbeat')} | where tostring(d.state) == "OPEN"), ${telemetryRows('Breakwater.BreakerOpened')}'
    measure: ''
    aggregation: 'Count'
    operator: 'GreaterThan'
    threshold: 0
    window: 'PT5M'
  }
  {
    name: 'trigger-disabled-while-closed'
    severity: 1
    description: 'The trigger is disabled while the breaker is CLOSED: nothing will re-enable it; enable it by hand (docs/operations.md).'
    query: '${telemetryRows('Breakwater.Heartbeat')} | where tostring(d.state) == "CLOSED" and tobool(d.triggerDisabled) == true'
    measure: ''
    aggregation: 'Count'
    operator: 'GreaterThan'
    // Three heartbeats in a row: an approval passes through CLOSED-and-disabled for at most a moment.
    threshold: 2
    window: 'PT5M'
  }
  {
    name: 'dead-letters-over-threshold'
    severity: 2
    description: 'More than ${deadLetterThreshold} dead letters wait in the queue: look at them and redrive (docs/operations.md).'
    query: '${telemetryRows('Breakwater.Heartbeat')} | extend deadLetters = toint(d.deadLetters) | where isnotnull(deadLetters) | project timestamp, deadLetters'
    measure: 'deadLetters'
    aggregation: 'Maximum'
    operator: 'GreaterThan'
    threshold: deadLetterThreshold
    window: 'PT15M'
  }
  {
    name: 'events-held-too-long'
    severity: 1
    description: 'Events have been held for more than ${heldMinutesThreshold} minutes; the hub keeps them only for its retention period.'
    query: 'union (${telemetryRows('Breakwater.Heartbeat')} | extend heldSeconds = toint(d.openSeconds)), (${telemetryRows('Breakwater.BatchHeld')} | extend heldSeconds = toint(d.heldSeconds)) | where isnotnull(heldSeconds) | project timestamp, heldSeconds'
    measure: 'heldSeconds'
    aggregation: 'Maximum'
    operator: 'GreaterThan'
    threshold: heldMinutesThreshold * 60
    window: 'PT15M'
  }
  {
    name: 'breaker-store-unreachable'
    severity: 2
    description: 'The breaker store (Redis or Table) does not answer: the breaker cannot count or trip, failures are dead-lettered.'
    query: 'union (${telemetryRows('Breakwater.Heartbeat')} | where tobool(d.storeReachable) == false), ${telemetryRows('Breakwater.BreakerStoreUnavailable')}'
    measure: ''
    aggregation: 'Count'
    operator: 'GreaterThan'
    threshold: 0
    window: 'PT5M'
  }
  {
    name: 'heartbeat-missing'
    severity: 2
    description: 'No heartbeat for 10 minutes: the app or its watchdog timer is not running, so no other alert can fire.'
    query: telemetryRows('Breakwater.Heartbeat')
    measure: ''
    aggregation: 'Count'
    operator: 'LessThan'
    threshold: 1
    window: 'PT10M'
  }
]

resource alertRules 'Microsoft.Insights/scheduledQueryRules@2023-12-01' = [
  for rule in rules: {
    name: 'breakwater-${rule.name}'
    location: location
    tags: tags
    kind: 'LogAlert'
    properties: {
      displayName: 'Breakwater: ${rule.name}'
      description: rule.description
      severity: rule.severity
      enabled: true
      scopes: [applicationInsights.id]
      evaluationFrequency: 'PT5M'
      windowSize: rule.window
      autoMitigate: true
      criteria: {
        allOf: [
          {
            query: rule.query
            timeAggregation: rule.aggregation
            metricMeasureColumn: empty(rule.measure) ? null : rule.measure
            operator: rule.operator
            threshold: rule.threshold
            failingPeriods: {
              numberOfEvaluationPeriods: 1
              minFailingPeriodsToAlert: 1
            }
          }
        ]
      }
      actions: {
        actionGroups: [approversGroup.id]
      }
    }
  }
]

output actionGroupId string = approversGroup.id
