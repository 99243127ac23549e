// Azure Monitor alerts for the breaker, sent to the approvers' action group and to the team's own action
// groups (actionGroupIds: pager, SMS, ITSM), each carrying a link to its runbook section. Every log rule reads
// the app's own event records (src/kernel/telemetryNames.ts, emitted by src/kernel/appEvent.ts, their fields
// as customDimensions); test/deploy/alertRules.test.ts checks that each name and field queried here is one
// the app emits, and that each query parses and resolves with Microsoft's KQL language service.
// Stateful rules (autoMitigate): one notification when a condition starts, one when it resolves.

param location string
param tags object
param applicationInsightsName string
param actionGroupName string
@description('APPROVERS: addresses separated by ; or , (each becomes an email receiver).')
param approvers string
@description('Dead letters waiting in the queue above which the dead-letter alert fires.')
param deadLetterThreshold int
@description('Share of the hub\'s retention, in percent, the oldest waiting event may have spent (breaker OPEN, a held batch, or the retention guard\'s time until the first loss) before the held-events alert fires.')
param heldRetentionPercent int
@description('How long the hub keeps an event, in hours (eventHubRetentionDays × 24).')
param retentionHours int
@description('Events waiting behind the checkpoints (consumer lag) above which, for 15 minutes while CLOSED, the lag alert fires.')
param lagEventsThreshold int
@description('Minutes a partition may have events waiting without its checkpoint moving, while CLOSED, before the stalled-trigger alert fires.')
param stalledMinutesThreshold int
@description('Hours in maintenance mode before the maintenance-too-long alert fires (a stop on purpose someone forgot).')
param maintenanceHoursThreshold int
@description('Resource ids of action groups the team already has (pager, SMS, ITSM): every alert notifies them too.')
param actionGroupIds string[]
@secure()
@description('Optional webhook that receives every alert (common alert schema) through the approvers\' action group; empty = none.')
param alertWebhookUrl string
@description('Where docs/telemetry.md is published for the on-call (e.g. the repository\'s web view of it); each rule links to its own section.')
param runbookBaseUrl string
@description('Resource id of the Event Hubs namespace (its metric alerts).')
param eventHubNamespaceId string

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
    webhookReceivers: empty(alertWebhookUrl)
      ? []
      : [
          {
            name: 'alert-webhook'
            serviceUri: alertWebhookUrl
            useCommonAlertSchema: true
          }
        ]
  }
}

// Every rule notifies the approvers' group and each of the team's own groups.
var notify = concat([approversGroup.id], actionGroupIds)

// The runbook of one rule: its own section of docs/telemetry.md (the heading is the rule's name).
func runbook(baseUrl string, rule string) string => '${baseUrl}#${rule}'

// Records of one app event, its fields as `d`: each event is an OpenTelemetry record whose `event`
// attribute names it and whose other attributes are its fields (customDimensions in Application Insights).
func eventRecords(name string) string =>
  '(traces | where tostring(customDimensions.event) == "${name}" | extend d = customDimensions)'

// One query per line, so the test can match each rule's names and fields.
var rules = [
  {
    name: 'breaker-open'
    severity: 1
    description: 'The circuit breaker is OPEN: processing is stopped until an approver restarts it.'
    query: 'union (${eventRecords('Breakwater.Heartbeat')} | where tostring(d.state) == "OPEN"), ${eventRecords('Breakwater.BreakerOpened')}'
    measure: ''
    aggregation: 'Count'
    operator: 'GreaterThan'
    threshold: 0
    window: 'PT5M'
  }
  {
    name: 'trigger-disabled-while-closed'
    severity: 1
    description: 'The trigger is disabled while the breaker is CLOSED and not in maintenance: nothing will re-enable it; enable it by hand (docs/operations.md).'
    query: '${eventRecords('Breakwater.Heartbeat')} | where tostring(d.state) == "CLOSED" and tobool(d.triggerDisabled) == true and isnull(toint(d.maintenanceSeconds))'
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
    query: '${eventRecords('Breakwater.Heartbeat')} | extend deadLetters = toint(d.deadLetters) | where isnotnull(deadLetters) | project timestamp, deadLetters'
    measure: 'deadLetters'
    aggregation: 'Maximum'
    operator: 'GreaterThan'
    threshold: deadLetterThreshold
    window: 'PT15M'
  }
  {
    name: 'events-held-too-long'
    severity: 1
    description: 'Events have waited more than ${heldRetentionPercent}% of the hub\'s ${retentionHours} h retention; the retention guard saves them before the first loss (Breakwater.RetentionSaved), else the hub drops them.'
    query: 'union (${eventRecords('Breakwater.Heartbeat')} | extend heldSeconds = toint(d.openSeconds)), (${eventRecords('Breakwater.Heartbeat')} | extend heldSeconds = toint(${retentionHours * 3600} - toint(d.timeToFirstLossSeconds))), (${eventRecords('Breakwater.BatchHeld')} | extend heldSeconds = toint(d.heldSeconds)) | where isnotnull(heldSeconds) | project timestamp, heldSeconds'
    measure: 'heldSeconds'
    aggregation: 'Maximum'
    operator: 'GreaterThan'
    // Seconds: hours × 3600 × percent / 100.
    threshold: retentionHours * 36 * heldRetentionPercent
    window: 'PT15M'
  }
  {
    name: 'retention-save-failed'
    severity: 1
    description: 'The retention guard could not save events that are near the hub\'s retention (or could not move the checkpoint past them); it tries again every minute.'
    query: eventRecords('Breakwater.RetentionSaveFailed')
    measure: ''
    aggregation: 'Count'
    operator: 'GreaterThan'
    threshold: 0
    window: 'PT5M'
  }
  {
    name: 'events-saved-before-retention'
    severity: 2
    description: 'The retention guard saved waiting events to blobs (saved/<partition>/ in the dead-letter container) before the hub dropped them; they reach the sink on the next approval.'
    query: eventRecords('Breakwater.RetentionSaved')
    measure: ''
    aggregation: 'Count'
    operator: 'GreaterThan'
    threshold: 0
    window: 'PT5M'
  }
  {
    name: 'breaker-store-unreachable'
    severity: 2
    description: 'The breaker store (Redis or Table) does not answer: the breaker cannot count or trip, failures are dead-lettered.'
    query: 'union (${eventRecords('Breakwater.Heartbeat')} | where tobool(d.storeReachable) == false), ${eventRecords('Breakwater.BreakerStoreUnavailable')}'
    measure: ''
    aggregation: 'Count'
    operator: 'GreaterThan'
    threshold: 0
    window: 'PT5M'
  }
  {
    name: 'consumer-lag'
    severity: 2
    description: 'More than ${lagEventsThreshold} events have waited behind the checkpoints for 15 minutes while CLOSED: the consumer falls behind.'
    query: '${eventRecords('Breakwater.Heartbeat')} | where tostring(d.state) == "CLOSED" | extend waitingEvents = toint(d.waitingEvents) | where isnotnull(waitingEvents) | project timestamp, waitingEvents'
    measure: 'waitingEvents'
    // Every heartbeat of the window over the threshold: a burst that drains is not lag.
    aggregation: 'Minimum'
    operator: 'GreaterThan'
    threshold: lagEventsThreshold
    window: 'PT15M'
  }
  {
    name: 'trigger-stalled-while-closed'
    severity: 1
    description: 'Events wait and no checkpoint has moved for ${stalledMinutesThreshold} minutes while CLOSED and the trigger enabled: the trigger stopped consuming.'
    query: '${eventRecords('Breakwater.Heartbeat')} | where tostring(d.state) == "CLOSED" and tobool(d.triggerDisabled) != true and isnull(toint(d.maintenanceSeconds)) | extend stalledSeconds = toint(d.stalledSeconds) | where isnotnull(stalledSeconds) | project timestamp, stalledSeconds'
    measure: 'stalledSeconds'
    aggregation: 'Maximum'
    operator: 'GreaterThan'
    threshold: stalledMinutesThreshold * 60
    window: 'PT10M'
  }
  {
    name: 'maintenance-too-long'
    severity: 3
    description: 'The trigger has been stopped on purpose (maintenance mode) for more than ${maintenanceHoursThreshold} hours: events wait in the hub, which keeps them only for its retention.'
    query: '${eventRecords('Breakwater.Heartbeat')} | extend maintenanceSeconds = toint(d.maintenanceSeconds) | where isnotnull(maintenanceSeconds) | project timestamp, maintenanceSeconds'
    measure: 'maintenanceSeconds'
    aggregation: 'Maximum'
    operator: 'GreaterThan'
    threshold: maintenanceHoursThreshold * 3600
    window: 'PT15M'
  }
  {
    name: 'heartbeat-missing'
    severity: 2
    description: 'No heartbeat for 10 minutes: the app or its watchdog timer is not running, so no other alert can fire.'
    query: eventRecords('Breakwater.Heartbeat')
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
      description: '${rule.description} Runbook: ${runbook(runbookBaseUrl, rule.name)}'
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
        actionGroups: notify
        customProperties: {
          runbook: runbook(runbookBaseUrl, rule.name)
        }
      }
    }
  }
]

// The Azure Monitor baseline alerts (AMBA) for an Event Hubs namespace: throttling (more traffic than the
// throughput units take), server errors and quota errors (e.g. too many receivers per consumer group).
// As AMBA sets them: dynamic thresholds (Low sensitivity) on the average over 15 min windows, evaluated
// every 5 min, alerting only when `failing` of the last `periods` windows break the learned band. A
// catch-up after a trip throttles for a few minutes by design; a static `> 0` over 5 min paged each time.
// AMBA leaves minFailingPeriodsToAlert to the deployer: 4 of 6 (an hour and a half looked at, an hour
// of it bad) and 3 of 4 for quota errors, which AMBA looks at over 4 periods.
var metricRules = [
  {
    name: 'eventhubs-throttled-requests'
    metric: 'ThrottledRequests'
    severity: 3
    periods: 6
    failing: 4
    description: 'Event Hubs throttled requests: the namespace needs more throughput units (docs/benchmarks.md).'
  }
  {
    name: 'eventhubs-server-errors'
    metric: 'ServerErrors'
    severity: 2
    periods: 6
    failing: 4
    description: 'Event Hubs answered with server errors: the service is degraded; check Azure status and Resource health.'
  }
  {
    name: 'eventhubs-quota-exceeded'
    metric: 'QuotaExceededErrors'
    severity: 3
    periods: 4
    failing: 3
    description: 'Event Hubs quota exceeded (receivers per consumer group, connections, size): something else reads this consumer group.'
  }
]

resource eventHubMetricAlerts 'Microsoft.Insights/metricAlerts@2018-03-01' = [
  for rule in metricRules: {
    name: 'breakwater-${rule.name}'
    location: 'global'
    tags: tags
    properties: {
      description: '${rule.description} Runbook: ${runbook(runbookBaseUrl, rule.name)}'
      severity: rule.severity
      enabled: true
      scopes: [eventHubNamespaceId]
      evaluationFrequency: 'PT5M'
      windowSize: 'PT15M'
      autoMitigate: true
      // Dynamic thresholds are accepted only in the multiple-resource criteria (one scope here).
      targetResourceType: 'Microsoft.EventHub/namespaces'
      targetResourceRegion: location
      criteria: {
        'odata.type': 'Microsoft.Azure.Monitor.MultipleResourceMultipleMetricCriteria'
        allOf: [
          {
            criterionType: 'DynamicThresholdCriterion'
            name: rule.metric
            metricNamespace: 'Microsoft.EventHub/namespaces'
            metricName: rule.metric
            operator: 'GreaterThan'
            alertSensitivity: 'Low'
            failingPeriods: {
              numberOfEvaluationPeriods: rule.periods
              minFailingPeriodsToAlert: rule.failing
            }
            timeAggregation: 'Average'
          }
        ]
      }
      actions: [
        for group in notify: {
          actionGroupId: group
          webHookProperties: {
            runbook: runbook(runbookBaseUrl, rule.name)
          }
        }
      ]
    }
  }
]

output actionGroupId string = approversGroup.id
