import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { telemetry, telemetryNames } from '../../src/kernel/telemetryNames';
import { kqlErrors } from '../support/kql';
import { isObject, moduleNamed, readMainTemplate, repoRoot, resourcesOf } from './armTemplate';
import { workbookQueries } from './workbookQueries';

/**
 * The time to the first loss is being added to the held-batch record by the retention guard; until it
 * lands the workbook's column stays empty (toint of an absent dimension is null), and this is the one
 * field the workbook may read before the app emits it.
 */
const pendingFields: string[] = [];

const fieldsOf = (name: string): readonly string[] =>
  Object.values(telemetry).find((t) => t.name === name)?.fields ?? [];

describe('the workbook (infra/core/workbook.json)', () => {
  const queries = workbookQueries();

  it('shows what the on-call asked for', () => {
    expect(queries.map((q) => q.title)).toEqual([
      'Breaker state over time',
      'Failures in the window',
      'Held events and time to the first loss per partition',
      'Dead letters by reason',
      'Trips with their approvals',
    ]);
  });

  it.each(queries.map((q) => [q.title, q] as const))(
    "%s is valid KQL (Microsoft's language service)",
    (_t, q) => {
      expect(kqlErrors(q.query)).toEqual([]);
    },
  );

  it.each(queries.map((q) => [q.title, q] as const))(
    '%s reads only events and fields the app emits',
    (_t, q) => {
      for (const name of q.events) expect(telemetryNames).toContain(name);
      const emitted = [...q.events.flatMap(fieldsOf), ...pendingFields];
      for (const field of q.fields) expect(emitted, `field ${field}`).toContain(field);
    },
  );

  it('the KQL check refuses a broken workbook query', () => {
    const query = queries[0]?.query ?? '';
    expect(kqlErrors(query.replace('bin(timestamp, 5m)', 'bin(timestamp, 5m'))).not.toEqual([]);
  });

  it('is deployed from that file, bound to the Application Insights resource', () => {
    const bicep = readFileSync(resolve(repoRoot, 'infra/core/workbook.bicep'), 'utf8');
    expect(bicep).toContain("serializedData: loadTextContent('workbook.json')");
    const module = moduleNamed(readMainTemplate(), 'workbook').properties;
    const nested = isObject(module) && isObject(module.template) ? module.template : {};
    const [workbook] = resourcesOf(nested).filter((r) => r.type === 'Microsoft.Insights/workbooks');
    expect(workbook).toBeDefined();
    // Bicep puts the loaded text in a variable of the module's template.
    expect(JSON.stringify(nested)).toContain('Breaker state over time');
    expect(JSON.stringify(workbook)).toContain('serializedData');
  });
});
