import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { repoRoot } from './armTemplate';

interface HostJson {
  readonly functionTimeout?: string;
  readonly extensionBundle?: { readonly id?: string; readonly version?: string };
  readonly extensions?: { readonly eventHubs?: Record<string, unknown> };
}

const host = JSON.parse(readFileSync(resolve(repoRoot, 'host.json'), 'utf8')) as HostJson;

/** The first extension bundle that carries Event Hubs extension 6.x (6.2+ keeps held batches on shutdown). */
const FIRST_SAFE_BUNDLE = [4, 28, 0] as const;

/** `[a.b.c, x.y.z)` as the host reads a bundle range; a wildcard lower bound means its lowest version. */
function parseRange(range: string) {
  const m = /^\[\s*(\d+)\.(\d+|\*)(?:\.(\d+|\*))?\s*,\s*(\d+)\.(\d+)\.(\d+)\s*\)$/.exec(range);
  if (!m) throw new Error(`not a bundle range: ${range}`);
  const part = (s: string | undefined) => (s === undefined || s === '*' ? 0 : Number(s));
  return {
    lower: [part(m[1]), part(m[2]), part(m[3])] as const,
    upper: [Number(m[4]), Number(m[5]), Number(m[6])] as const,
  };
}

const compare = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};

describe('host.json', () => {
  it('checkpoints after every batch (batchCheckpointFrequency 1): a higher value lets a graceful shutdown checkpoint past a held batch', () => {
    // The newest extension checkpoints un-checkpointed work on graceful shutdown; with a frequency above
    // 1 that point can lie past a batch the retry policy is holding (platform-facts, Event Hubs trigger).
    expect(host.extensions?.eventHubs?.batchCheckpointFrequency).toBe(1);
  });

  it('pins the extension bundle to 4.28.0 or later: older bundles checkpoint past a held batch on shutdown', () => {
    expect(host.extensionBundle?.id).toBe('Microsoft.Azure.Functions.ExtensionBundle');
    const { lower, upper } = parseRange(host.extensionBundle?.version ?? '');
    expect(compare(lower, FIRST_SAFE_BUNDLE), `lower bound ${lower.join('.')}`).toBeGreaterThanOrEqual(0);
    expect(upper).toEqual([5, 0, 0]);
  });

  it('is what the app ships: .funcignore keeps host.json in the package', () => {
    const ignored = readFileSync(resolve(repoRoot, '.funcignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    const leavesOut = (pattern: string) =>
      new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test('host.json');
    expect(ignored.filter(leavesOut)).toEqual([]);
  });

  it('reads a wildcard lower bound as its lowest version (so "[4.*, 5.0.0)" would admit 4.0.0)', () => {
    expect(parseRange('[4.*, 5.0.0)').lower).toEqual([4, 0, 0]);
    expect(compare(parseRange('[4.*, 5.0.0)').lower, FIRST_SAFE_BUNDLE)).toBeLessThan(0);
  });

  it('sets no maxWaitTime while minEventBatchSize is 1: the extension ignores it then', () => {
    const eventHubs = host.extensions?.eventHubs ?? {};
    const minBatch = typeof eventHubs.minEventBatchSize === 'number' ? eventHubs.minEventBatchSize : 1;
    // Batches start as soon as one event is there (low latency); a maxWaitTime would only mislead.
    expect(minBatch).toBe(1);
    expect(eventHubs).not.toHaveProperty('maxWaitTime');
  });
});
