import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { repoRoot } from './armTemplate';

/** The log alert rules as infra/core/alerts.bicep writes them, read from its source. */
export const alertsBicep = readFileSync(resolve(repoRoot, 'infra/core/alerts.bicep'), 'utf8');

export interface AlertRuleQuery {
  readonly name: string;
  readonly query: string;
  /** The app events the query selects (each `eventRecords('<name>')`). */
  readonly events: readonly string[];
  /** The record dimensions the query reads (each `d.<field>`). */
  readonly fields: readonly string[];
}

/** Each rule's name and query, read from the rules array of alerts.bicep (one query per line). */
export function alertRuleQueries(): AlertRuleQuery[] {
  const out: AlertRuleQuery[] = [];
  let name: string | undefined;
  for (const line of alertsBicep.split('\n')) {
    const n = /^\s+name: '([a-z-]+)'$/.exec(line);
    if (n) name = n[1];
    const q = /^\s+query: (.+)$/.exec(line);
    const query = q?.[1];
    if (query === undefined || name === undefined || query === 'rule.query') continue;
    out.push({
      name,
      query,
      events: [...new Set([...query.matchAll(/eventRecords\('([^']+)'\)/g)].map((m) => m[1] ?? ''))],
      fields: [...new Set([...query.matchAll(/\bd\.(\w+)/g)].map((m) => m[1] ?? ''))],
    });
  }
  return out;
}

/** The body of the Bicep function that selects an event's records. */
export const eventRecordsBody =
  /func eventRecords\(name string\) string =>\s*'(.+)'/.exec(alertsBicep)?.[1] ?? '';

/** A rule's query as Azure Monitor runs it: each eventRecords('<name>') expanded as the function is written. */
export function expandQuery(query: string): string {
  const expanded = query
    .replaceAll('${retentionHours * 3600}', '604800')
    .replace(/(\$\{)?eventRecords\('([^']+)'\)\}?/g, (_m, _open, name: string) =>
      eventRecordsBody.replaceAll('${name}', name),
    );
  // A rule whose whole query is one call is written without quotes; the retention as the default hub's.
  return expanded.startsWith("'") && expanded.endsWith("'") ? expanded.slice(1, -1) : expanded;
}
