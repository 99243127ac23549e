import { expect, it } from 'vitest';

import { tripCause } from '../../src/breaker/breakerPolicy';
import { type BreakerStateName, type BreakerStore, readableTrips } from '../../src/breaker/breakerStore';
import { failures, type FreshStore, T0, testPolicy } from './breakerStoreFixture';

/**
 * The trip rule as a table: from a state with `prior` failures already in the window, one record of
 * `n` more either trips (with its cause) or does not. `tripCause` must agree with every row, and
 * `tripRuleCases` runs every row through each store (the Redis store decides in Lua, so this is what
 * keeps it equal to the others). testPolicy: threshold 5, probation threshold 2.
 */
export const tripRuleTable: readonly {
  readonly from: BreakerStateName;
  readonly prior: number;
  readonly n: number;
  readonly trips: 'threshold' | 'probation' | undefined;
}[] = [
  { from: 'CLOSED', prior: 0, n: 0, trips: undefined },
  { from: 'CLOSED', prior: 0, n: 5, trips: undefined },
  { from: 'CLOSED', prior: 0, n: 6, trips: 'threshold' },
  { from: 'CLOSED', prior: 0, n: 60, trips: 'threshold' },
  { from: 'CLOSED', prior: 4, n: 1, trips: undefined },
  { from: 'CLOSED', prior: 5, n: 0, trips: undefined },
  { from: 'CLOSED', prior: 5, n: 1, trips: 'threshold' },
  { from: 'HALF_OPEN', prior: 0, n: 2, trips: undefined },
  { from: 'HALF_OPEN', prior: 0, n: 3, trips: 'probation' },
  { from: 'HALF_OPEN', prior: 1, n: 0, trips: undefined },
  { from: 'HALF_OPEN', prior: 2, n: 1, trips: 'probation' },
  { from: 'OPEN', prior: 6, n: 1, trips: undefined },
  { from: 'OPEN', prior: 6, n: 100, trips: undefined },
];

const name = (c: (typeof tripRuleTable)[number]) =>
  `${c.from} with ${c.prior} in the window, ${c.n} more: ${c.trips ?? 'no trip'}`;

/** A fresh store in `from` with `prior` failures in its window, at T0 + 1 s. */
async function storeIn(fresh: FreshStore, from: BreakerStateName, prior: number): Promise<BreakerStore> {
  const store = await fresh();
  if (from === 'CLOSED') {
    if (prior > 0) await store.record(failures(prior), T0);
    return store;
  }
  const opened = await store.record(failures(testPolicy.threshold + 1), T0);
  if (from === 'OPEN') return store;
  expect(await store.transition('OPEN', 'HALF_OPEN', opened.tripId, T0 + 500)).toBe(true);
  await store.resetWindow();
  if (prior > 0) await store.record(failures(prior), T0 + 500);
  return store;
}

/** The table through `tripCause` itself. */
export function tripRuleDefinition() {
  it.each(tripRuleTable)('tripCause: $from, $prior in the window, $n more', (c) => {
    expect(tripCause(testPolicy, c.from, c.prior + c.n)).toBe(c.trips);
  });
}

/** The table through one store: the same decision, count, state and trip record as the rule says. */
export function tripRuleCases(fresh: FreshStore) {
  for (const c of tripRuleTable)
    it(`applies the trip rule: ${name(c)}`, async () => {
      const store = await storeIn(fresh, c.from, c.prior);
      const before = await store.getState();
      const result = await store.record(failures(c.n, 'r'), T0 + 1_000);
      expect(result.failuresInWindow).toBe(c.prior + c.n);
      expect(result.tripped).toBe(c.trips !== undefined);
      expect(result.state).toBe(c.trips === undefined ? c.from : 'OPEN');
      if (c.trips === undefined) expect(result.tripId).toBe(before.tripId);
      else {
        expect(result.tripId).not.toBe(before.tripId);
        const [latest] = readableTrips(await store.history(1));
        expect(latest).toMatchObject({
          tripId: result.tripId,
          cause: c.trips,
          failuresInWindow: c.prior + c.n,
        });
      }
      await store.close();
    });
}
