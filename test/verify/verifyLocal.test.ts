import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { LocalTarget } from '../../verify/local/localTarget';
import { runVerify, type VerifyResult } from '../../verify/runVerify';
import { localTarget, recorder, shortRun } from './verifyFixture';

let target: LocalTarget;
let result: VerifyResult;
const out = recorder();

beforeAll(async () => {
  target = await localTarget();
  result = await runVerify(target, shortRun('ok1'), out);
}, 180_000);
afterAll(() => target.close());

describe('npm run verify against the simulator', () => {
  it('exits 0 with every reading accounted for: processed, or dead-lettered as poison; lost 0', () => {
    expect(result.failure).toBeUndefined();
    expect(result.exitCode).toBe(0);
    expect(result.counts).toMatchObject({ sent: 120, processed: 116, deadLettered: 4, held: 0, lost: 0 });
    expect(Object.fromEntries(result.counts?.byReason ?? [])).toEqual({ poison: 4 });
    expect(out.lines).toContain('lost 0');
  });

  it('saw every step, in order, on virtual time', () => {
    const m = result.milestones;
    const order = [m.faultOn, m.tripped, m.disabled, m.notified, m.approved, m.resumed, m.drained, m.closed];
    expect(order.every((t) => t !== undefined)).toBe(true);
    expect([...order].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(order);
    for (const line of [
      'time to trip',
      'time to disable',
      'time to notify',
      'time to resume',
      'time to drain',
      'time to close',
    ])
      expect(
        out.lines.some((l) => l.includes(line) && !l.includes('did not happen')),
        line,
      ).toBe(true);
  });

  it('approved through the public page and noticed the email of this trip', () => {
    expect(out.lines.join('\n')).toMatch(
      /OK notification: email ".*approval needed.*" with an approval link for this trip/,
    );
    expect(out.lines.join('\n')).toContain('OK approved through the approval page as "Verify run"');
    expect(target.world.smtp.received.length).toBeGreaterThan(0);
  });

  it('leaves the app as it found it: fault off, breaker CLOSED, trigger enabled', async () => {
    expect(result.restoration.restored).toBe(true);
    expect(target.world.isDisabled()).toBe(false);
    expect((await target.world.runtime.breakerStore.getState()).state).toBe('CLOSED');
    expect(out.lines).toContain('  read back: breaker CLOSED, trigger enabled, fault off');
  });

  it('reports the checkpoints moving past every partition’s events', () => {
    const i = out.lines.findIndex((l) => l.includes('checkpoints (last sequence number'));
    const cells =
      out.lines
        .slice(i + 1, i + 3)
        .join(' ')
        .match(/p\d+ [^ ]+/g) ?? [];
    expect(cells.length).toBe(8);
    for (const cell of cells) expect(cell).toMatch(/^p\d+ -\/\d+→\d+$/);
  });
});
