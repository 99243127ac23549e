import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { invokeHttp } from '../../sim/host/httpInvoke';
import { OperatorFunction } from '../../src/operator/registerOperator';
import { type OperatorFixture, operatorFixture } from './operatorFixture';

let f: OperatorFixture;
beforeAll(async () => {
  f = await operatorFixture();
});
afterAll(() => f.close());

const MIN = 60_000;
const get = (fn: string, path: string) =>
  invokeHttp(
    fn,
    { method: 'GET', url: `https://breakwater.example/api/breaker/${path}` },
    { durableClient: f.durable.clientData },
  );

describe('the dashboard counts one incident per episode', () => {
  it('shows a trip and its probation re-trip as one incident, closed when the re-trip closed', async () => {
    const t0 = f.clock.now() - 60 * MIN;
    // Oldest first: an earlier, separate incident; then a trip whose probation failed and tripped again.
    f.store.addTrip({
      tripId: 't-old',
      cause: 'manual',
      reason: 'drill',
      openedAt: t0,
      failuresInWindow: 0,
      sample: [],
      approvedBy: 'Ana',
      approvedAt: t0 + MIN,
      closedAt: t0 + 8 * MIN,
    });
    f.store.addTrip({
      tripId: 't-first',
      cause: 'threshold',
      openedAt: t0 + 20 * MIN,
      failuresInWindow: 120,
      sample: [],
      approvedBy: 'Dana',
      approvedAt: t0 + 25 * MIN,
      resumedAt: t0 + 25 * MIN,
    });
    f.store.addTrip({
      tripId: 't-retrip',
      cause: 'probation',
      openedAt: t0 + 26 * MIN,
      failuresInWindow: 11,
      sample: [],
      approvedBy: 'Lee',
      approvedAt: t0 + 40 * MIN,
      closedAt: t0 + 46 * MIN,
    });

    const page = (await get(OperatorFunction.dashboard, 'dashboard')).body;
    const rows = [...page.matchAll(/<tr data-trips="(\d+)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((r) => r[1])).toEqual(['2', '1']);
    const [episode, older] = rows.map((r) => r[2] ?? '');
    expect(episode).toContain('t-first');
    expect(episode).toContain('re-tripped in probation ×1');
    expect(episode).toContain('Dana, Lee');
    expect(episode).toContain('26 min');
    expect(episode).not.toContain('(ongoing)');
    expect(older).toContain('t-old');
    expect(page).not.toContain('(ongoing)');
    expect(page).toContain('<strong id="environment">staging-eu</strong>');
  });
});
