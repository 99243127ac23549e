import { describe, expect, it } from 'vitest';

import { describeDownstream } from '../../src/sinks/describeDownstream';
import { TransientSinkError } from '../../src/sinks/errors';
import { probeWhileOpen } from '../../src/watchdog/probeWhileOpen';
import { memoryBreakerStore } from '../support/memoryBreakerStore';

const T0 = Date.parse('2026-03-01T02:58:00Z');
const MIN = 60_000;

function world() {
  const store = memoryBreakerStore({
    threshold: 10,
    probationThreshold: 2,
    windowMs: 30_000,
    bucketMs: 1_000,
  });
  let now = T0;
  let down: Error | undefined = new TransientSinkError(
    '503 Service Unavailable from the home activity table',
  );
  const deps = {
    store,
    clock: { now: () => now },
    sink: { probe: () => (down === undefined ? Promise.resolve() : Promise.reject(down)) },
  };
  return {
    store,
    deps,
    at: (ms: number) => {
      now = ms;
    },
    setDown: (error: Error | undefined) => {
      down = error;
    },
  };
}

describe('downstream probes while the breaker is OPEN', () => {
  it('records a failing streak from the trip, then a healthy streak from the first good probe', async () => {
    const w = world();
    w.store.force({ state: 'OPEN', tripId: 't1', since: T0 });
    w.store.addTrip({ tripId: 't1', cause: 'threshold', openedAt: T0, failuresInWindow: 12, sample: [] });

    w.at(T0 + MIN);
    await probeWhileOpen(w.deps);
    w.at(T0 + 2 * MIN);
    await probeWhileOpen(w.deps);
    let probe = w.store.trips.find((t) => t.tripId === 't1')?.probe;
    expect(probe).toMatchObject({ ok: false, since: T0, at: T0 + 2 * MIN });
    expect(describeDownstream(probe)).toBe(
      'still failing: 503 Service Unavailable from the home activity table, since 02:58 UTC (last probe 03:00:00 UTC)',
    );

    w.setDown(undefined);
    for (const minute of [3, 4, 5, 6, 7]) {
      w.at(T0 + minute * MIN);
      await probeWhileOpen(w.deps);
    }
    probe = w.store.trips.find((t) => t.tripId === 't1')?.probe;
    expect(probe).toMatchObject({ ok: true, since: T0 + 3 * MIN, at: T0 + 7 * MIN });
    expect(describeDownstream(probe)).toBe('downstream healthy for 4 min (last probe 03:05:00 UTC)');
  });

  it('probes nothing while CLOSED or HALF_OPEN', async () => {
    const w = world();
    let probes = 0;
    const deps = {
      ...w.deps,
      sink: {
        probe: () => {
          probes += 1;
          return Promise.resolve();
        },
      },
    };
    expect(await probeWhileOpen(deps)).toBeUndefined();
    w.store.force({ state: 'HALF_OPEN', tripId: 't1', since: T0 });
    expect(await probeWhileOpen(deps)).toBeUndefined();
    expect(probes).toBe(0);
  });

  it('counts a probe that does not answer in time as failing, and masks secrets in the error', async () => {
    const w = world();
    w.store.force({ state: 'OPEN', tripId: 't2', since: T0 });
    w.store.addTrip({ tripId: 't2', cause: 'manual', openedAt: T0, failuresInWindow: 0, sample: [] });
    const hangs = {
      probe: (signal: AbortSignal) =>
        new Promise<void>((_, reject) => {
          signal.addEventListener('abort', () => {
            reject(signal.reason as Error);
          });
        }),
    };
    const probe = await probeWhileOpen({ ...w.deps, sink: hangs, timeoutMs: 20 });
    expect(probe).toMatchObject({ ok: false, error: 'no answer within 0.02 s' });

    w.setDown(new Error('401 for https://acct.table.core.windows.net/?sig=SECRET123'));
    const leaked = await probeWhileOpen(w.deps);
    expect(leaked?.error).toContain('sig=***');
    expect(leaked?.error).not.toContain('SECRET123');
  });
});
