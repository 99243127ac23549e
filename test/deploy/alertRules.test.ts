import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { telemetry, telemetryNames } from '../../src/kernel/telemetryNames';
import { repoRoot } from './armTemplate';

const bicep = readFileSync(resolve(repoRoot, 'infra/core/alerts.bicep'), 'utf8');

/** Each rule's name and query, read from the rules array of alerts.bicep (one query per line). */
function rules(): { name: string; query: string }[] {
  const out: { name: string; query: string }[] = [];
  let name: string | undefined;
  for (const line of bicep.split('\n')) {
    const n = /^\s+name: '([a-z-]+)'$/.exec(line);
    if (n) name = n[1];
    const q = /^\s+query: (.+)$/.exec(line);
    if (q?.[1] !== undefined && name !== undefined && q[1] !== 'rule.query') out.push({ name, query: q[1] });
  }
  return out;
}

const fieldsOf = (name: string): readonly string[] =>
  Object.values(telemetry).find((t) => t.name === name)?.fields ?? [];

describe('alert rules (infra/core/alerts.bicep) and the telemetry the app emits', () => {
  const all = rules();

  it('covers every condition the operators asked for, plus a missing heartbeat', () => {
    expect(all.map((r) => r.name)).toEqual([
      'breaker-open',
      'trigger-disabled-while-closed',
      'dead-letters-over-threshold',
      'events-held-too-long',
      'breaker-store-unreachable',
      'heartbeat-missing',
    ]);
  });

  it.each(all.map((r) => [r.name, r.query] as const))(
    '%s queries only telemetry names and fields the app emits',
    (_name, query) => {
      const names = [...query.matchAll(/telemetryRows\('([^']+)'\)/g)].map((m) => m[1] ?? '');
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(telemetryNames).toContain(name);
      const fields = [...query.matchAll(/\bd\.(\w+)/g)].map((m) => m[1] ?? '');
      const emitted = names.flatMap(fieldsOf);
      for (const field of fields) expect(emitted, `field ${field}`).toContain(field);
    },
  );

  it('queries every telemetry name the app emits (none is emitted for nothing)', () => {
    const queried = new Set(
      all.flatMap((r) => [...r.query.matchAll(/telemetryRows\('([^']+)'\)/g)].map((m) => m[1])),
    );
    expect([...queried].sort()).toEqual([...telemetryNames].sort());
  });

  it('parses each line the way src/kernel/telemetryNames.ts writes it: the name, one space, then JSON', () => {
    const func = /func telemetryRows\(name string\) string =>\s*'(.+)'/.exec(bicep)?.[1] ?? '';
    expect(func).toContain('startswith "${name} "');
    expect(func).toContain('parse_json(substring(message, ${length(name) + 1}))');
  });
});
