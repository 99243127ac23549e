import { InvocationContext } from '@azure/functions';
import { describe, expect, it } from 'vitest';

import type { HeldBacklog } from '../../src/hub/heldBacklog';
import { readOperatorStatus } from '../../src/operator/operatorStatus';
import { freshMaintenanceRecord } from '../support/maintenanceRecords';
import { memoryStoreWithPolicy, memoryTriggerSwitch, POLICY } from './operatorFixture';

/** A promise and its resolver, so two reads can each wait for the other to have started. */
function started() {
  let mark!: () => void;
  const promise = new Promise<void>((resolve) => (mark = resolve));
  return { promise, mark };
}

describe('the status snapshot during an outage', () => {
  it('reads the slow parts at once, so the page waits for the slowest bound, not their sum', async () => {
    const now = Date.UTC(2026, 10, 29, 12, 0, 0);
    const store = memoryStoreWithPolicy();
    const countStarted = started();
    const heldStarted = started();
    const unknown: HeldBacklog = { known: false, at: now, reason: 'storage did not answer within 8 s' };
    const status = await readOperatorStatus(
      {
        functionName: 'ProcessSensorEvents',
        clock: { now: () => now },
        policy: POLICY,
        store,
        triggerSwitch: memoryTriggerSwitch(),
        maintenance: freshMaintenanceRecord('ProcessSensorEvents'),
        // Each answers only once the other has been asked: read one after the other, neither ever would.
        deadLetterCount: async () => {
          countStarted.mark();
          await heldStarted.promise;
          return undefined;
        },
        heldBacklog: async () => {
          heldStarted.mark();
          await countStarted.promise;
          return unknown;
        },
        orchestration: () => {
          throw new Error('no trip, so no orchestration read');
        },
      },
      new InvocationContext({ logHandler: () => undefined }),
    );
    expect(status).toMatchObject({ deadLetters: null, held: unknown, breaker: { state: 'CLOSED' } });
  }, 5_000);
});
