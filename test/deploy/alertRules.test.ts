import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { eventAttribute } from '../../src/kernel/appEvent';
import { telemetry, telemetryNames } from '../../src/kernel/telemetryNames';
import { kqlErrors } from '../support/kql';
import { alertRuleQueries, alertsBicep, eventRecordsBody, expandQuery } from './alertRuleQueries';
import { isObject, moduleNamed, readMainTemplate, repoRoot, resourcesOf, text } from './armTemplate';
import { workbookQueries } from './workbookQueries';

const bicep = alertsBicep;
const rules = alertRuleQueries;

const fieldsOf = (name: string): readonly string[] =>
  Object.values(telemetry).find((t) => t.name === name)?.fields ?? [];

/** Rule names of the Event Hubs metric alerts (the metricRules array: a name, then its metric). */
const metricRuleNames = [...bicep.matchAll(/name: '([a-z-]+)'\n\s+metric: '/g)].map((m) => m[1] ?? '');
const alertsDoc = readFileSync(resolve(repoRoot, 'docs/telemetry.md'), 'utf8');

describe('alert rules (infra/core/alerts.bicep) and the telemetry the app emits', () => {
  const all = rules();

  it('covers every condition the operators asked for, plus a missing heartbeat', () => {
    expect(all.map((r) => r.name)).toEqual([
      'breaker-open',
      'trigger-disabled-while-closed',
      'dead-letters-over-threshold',
      'events-held-too-long',
      'retention-save-failed',
      'events-saved-before-retention',
      'breaker-store-unreachable',
      'consumer-lag',
      'trigger-stalled-while-closed',
      'maintenance-too-long',
      'heartbeat-missing',
    ]);
  });

  it.each(all.map((r) => [r.name, r.query] as const))(
    '%s queries only telemetry names and fields the app emits',
    (_name, query) => {
      const names = [...query.matchAll(/eventRecords\('([^']+)'\)/g)].map((m) => m[1] ?? '');
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(telemetryNames).toContain(name);
      const fields = [...query.matchAll(/\bd\.(\w+)/g)].map((m) => m[1] ?? '');
      const emitted = names.flatMap(fieldsOf);
      for (const field of fields) expect(emitted, `field ${field}`).toContain(field);
    },
  );

  it('queries, with the workbook, every event the app emits (none is emitted for nothing)', () => {
    const queried = new Set([
      ...all.flatMap((r) => [...r.query.matchAll(/eventRecords\('([^']+)'\)/g)].map((m) => m[1])),
      ...workbookQueries().flatMap((q) => q.events),
    ]);
    expect([...queried].sort()).toEqual([...telemetryNames].sort());
  });

  it('selects each event by the attribute src/kernel/appEvent.ts names it with, its fields as d', () => {
    expect(eventRecordsBody).toBe(
      `(traces | where tostring(customDimensions.${eventAttribute}) == "\${name}" | extend d = customDimensions)`,
    );
  });

  it.each(all.map((r) => [r.name, r.query] as const))(
    "%s is valid KQL over the Application Insights tables (Microsoft's language service)",
    (_name, query) => {
      expect(kqlErrors(expandQuery(query))).toEqual([]);
    },
  );

  it('the KQL check refuses a broken query (a missing parenthesis, an unknown column)', () => {
    const query = expandQuery(all[0]?.query ?? '');
    expect(kqlErrors(query.replace('tostring(d.state)', 'tostring(d.state'))).not.toEqual([]);
    expect(kqlErrors(query.replace('| where tostring(d.state)', '| where tostring(dd.state)'))).not.toEqual(
      [],
    );
  });
});

describe('the events-held-too-long rule: a fraction of the retention, not a fixed hour', () => {
  const template = readMainTemplate();
  const params = moduleNamed(template, 'alerts').properties;
  const given = isObject(params) && isObject(params.parameters) ? params.parameters : {};
  const valueOf = (name: string) => {
    const p = given[name];
    return isObject(p) ? p.value : undefined;
  };
  const rule = /name: 'events-held-too-long'[\s\S]*?window: '[^']+'/.exec(bicep)?.[0] ?? '';

  it("is given the hub's retention and the percentage (alertHeldRetentionPercent, default 50)", () => {
    expect(valueOf('retentionHours')).toBe("[mul(parameters('eventHubRetentionDays'), 24)]");
    expect(valueOf('heldRetentionPercent')).toBe("[parameters('alertHeldRetentionPercent')]");
    const main = isObject(template.parameters) ? template.parameters : {};
    const percent = main.alertHeldRetentionPercent;
    expect(isObject(percent) ? percent.defaultValue : undefined).toBe(50);
  });

  it('fires when the oldest waiting event has spent that share of the retention (the time to the first loss)', () => {
    expect(rule).toContain('threshold: retentionHours * 36 * heldRetentionPercent');
    // The age the guard read while CLOSED too: the retention minus the time until the first loss.
    expect(rule).toContain('${retentionHours * 3600} - toint(d.timeToFirstLossSeconds)');
  });
});

describe('alert rules reach the team, each with its runbook', () => {
  const template = readMainTemplate();
  const alerts = moduleNamed(template, 'alerts').properties;
  const nested = isObject(alerts) && isObject(alerts.template) ? alerts.template : {};
  const variables = isObject(nested.variables) ? nested.variables : {};
  const resources = resourcesOf(nested);
  const ofType = (type: string) => resources.filter((r) => r.type === type);

  it('has the baseline Event Hubs metric alerts', () => {
    expect(metricRuleNames).toEqual([
      'eventhubs-throttled-requests',
      'eventhubs-server-errors',
      'eventhubs-quota-exceeded',
    ]);
    expect(bicep).toMatch(/metricName: rule.metric/);
    for (const metric of ['ThrottledRequests', 'ServerErrors', 'QuotaExceededErrors'])
      expect(bicep).toContain(`metric: '${metric}'`);
  });

  it('judges the Event Hubs metrics as the baseline does: dynamic thresholds over 15 min, several periods', () => {
    // A catch-up after a trip throttles for a few minutes by design; a static `> 0` over 5 min paged on
    // each one. The Azure Monitor baseline alerts for Microsoft.EventHub/namespaces (services/EventHub/
    // namespaces/alerts.yaml) use dynamic thresholds, 15 min windows every 5 min, 6 or 4 periods.
    const metric = ofType('Microsoft.Insights/metricAlerts')[0] ?? {};
    const props = isObject(metric.properties) ? metric.properties : {};
    expect(props.windowSize).toBe('PT15M');
    expect(props.evaluationFrequency).toBe('PT5M');
    const criteria = isObject(props.criteria) ? props.criteria : {};
    expect(criteria['odata.type']).toBe('Microsoft.Azure.Monitor.MultipleResourceMultipleMetricCriteria');
    const criterion = text(criteria.allOf);
    expect(criterion).toContain('"criterionType":"DynamicThresholdCriterion"');
    expect(criterion).toContain('"alertSensitivity":"Low"');
    expect(criterion).not.toContain('threshold');
    const periods = [...bicep.matchAll(/periods: (\d+)\n\s+failing: (\d+)/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    expect(periods).toEqual([
      [6, 4],
      [6, 4],
      [4, 3],
    ]);
    expect(criterion).toContain(
      `"numberOfEvaluationPeriods":"[variables('metricRules')[copyIndex()].periods]"`,
    );
    expect(criterion).toContain(
      `"minFailingPeriodsToAlert":"[variables('metricRules')[copyIndex()].failing]"`,
    );
  });

  it("notifies the team's own action groups besides the approvers, on every rule", () => {
    expect(text(variables.notify)).toContain("parameters('actionGroupIds')");
    const logRules = ofType('Microsoft.Insights/scheduledQueryRules');
    const metricRules = ofType('Microsoft.Insights/metricAlerts');
    expect(logRules).toHaveLength(1); // one copy loop over the rules
    expect(metricRules).toHaveLength(1);
    expect(text(logRules[0])).toContain(`"actionGroups":"[variables('notify')]"`);
    expect(text(metricRules[0])).toContain(`"count":"[length(variables('notify'))]"`);
  });

  it.each([...rules().map((r) => r.name), ...metricRuleNames])(
    '%s links to its own runbook section in docs/telemetry.md, which has first steps',
    (name) => {
      const section = new RegExp(`^#### ${name}\\n\\n1\\. `, 'm');
      expect(alertsDoc).toMatch(section);
    },
  );

  it('puts the runbook link in every rule (description and custom property)', () => {
    const logRule = text(ofType('Microsoft.Insights/scheduledQueryRules')[0]);
    const metricRule = text(ofType('Microsoft.Insights/metricAlerts')[0]);
    for (const rule of [logRule, metricRule]) expect(rule).toContain("parameters('runbookBaseUrl')");
    expect(logRule).toContain('"customProperties":{"runbook"');
    expect(metricRule).toContain('"webHookProperties":{"runbook"');
  });
});
