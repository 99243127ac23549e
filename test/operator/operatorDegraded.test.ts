import { describe, expect, it } from 'vitest';

import { OperatorFunction } from '../../src/operator/registerOperator';
import { call, dashboard, f, setUpOperatorFixture, status } from './operatorHttpFixture';

setUpOperatorFixture();

describe('held batches and re-runs per partition', () => {
  it('status and dashboard show each partition held or moving, its re-runs, and stuck partitions', async () => {
    for (let rerun = 0; rerun <= 3; rerun++)
      f.progress.ran({ partitionId: '9', firstSequence: 4100, rerun, outcome: 'dead-letter-store' });
    f.progress.ran({ partitionId: '2', firstSequence: 17, rerun: 1, outcome: 'outage' });
    f.progress.ran({ partitionId: '0', firstSequence: 800, rerun: 0, outcome: 'completed' });
    const s = await status();
    expect(s.processing).toMatchObject({
      seenBy: 'this instance',
      heldBatches: 2,
      stuckPartitions: 1,
      stuckEpisodes: 1,
      partitions: [
        { partitionId: '0', held: false },
        { partitionId: '2', held: true, reason: 'outage', rerun: 1, firstSequence: 17, stuck: false },
        {
          partitionId: '9',
          held: true,
          reason: 'dead-letter-store',
          rerun: 3,
          firstSequence: 4100,
          stuck: true,
        },
      ],
    });
    const page = await dashboard();
    expect(page.body).toMatch(/2 held batch\(es\), 1 stuck partition\(s\)/);
    expect(page.body).toMatch(/<strong>STUCK<\/strong> \(dead-letter-store\) from sequence\s+4100/);
    expect(page.body).toMatch(/<strong>held<\/strong> \(outage\) from sequence\s+17/);
  });
});

describe('degraded dependencies (G6)', () => {
  it('status still answers 200 and names the unreachable store; the dashboard says so', async () => {
    f.store.failWith(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    f.deadLetters = undefined;
    try {
      const s = await status();
      expect(s).toMatchObject({
        state: null,
        failuresInWindow: null,
        deadLetters: null,
        store: { ok: false },
      });
      expect((s.store as { error: string }).error).toMatch(/ECONNREFUSED/);
      const page = await dashboard();
      expect(page.status).toBe(200);
      expect(page.body).toMatch(/badge UNKNOWN/);
      expect(page.body).toContain('<strong>unreachable</strong>');
      expect((await call(OperatorFunction.history, 'GET', 'history')).status).toBe(503);
      expect((await call(OperatorFunction.trip, 'POST', 'trip', { reason: 'x' })).status).toBe(503);
    } finally {
      f.store.failWith(undefined);
      f.deadLetters = 7;
    }
  });

  it('escapes trip reasons on the dashboard', async () => {
    const res = await call(OperatorFunction.trip, 'POST', 'trip', { reason: '<script>alert(1)</script>' });
    expect(res.status).toBe(202);
    const page = await dashboard();
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
