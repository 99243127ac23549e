import { describe, expect, it } from 'vitest';

import { readHeldBacklog } from '../../src/hub/heldBacklog';
import type { HubReader } from '../../src/hub/hubReader';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const never = () => new Promise<never>(() => undefined);

describe('the held backlog when the hub or the checkpoints never answer', () => {
  it('gives up at its bound even when a read ignores the abort signal (a connection that never opens)', async () => {
    // An AMQP connection that hangs before it opens can leave the client's promise unsettled.
    const hub: HubReader = { partitions: never, enqueuedTimeOf: never };
    const held = await readHeldBacklog(
      {
        hub,
        checkpoints: () => Promise.resolve(new Map()),
        retentionHours: 24,
        clock: { now: () => NOW },
        timeoutMs: 50,
      },
      true,
    );
    expect(held).toEqual({ known: false, at: NOW, reason: 'the hub did not answer in time' });
  }, 5_000);

  it('counts what is behind the checkpoint when both answer', async () => {
    const hub: HubReader = {
      partitions: () =>
        Promise.resolve([
          {
            partitionId: '0',
            beginningSequenceNumber: 0,
            lastEnqueuedSequenceNumber: 9,
            lastEnqueuedAt: NOW,
            isEmpty: false,
          },
        ]),
      enqueuedTimeOf: () => Promise.resolve(NOW - 60_000),
    };
    const held = await readHeldBacklog(
      {
        hub,
        checkpoints: () => Promise.resolve(new Map([['0', { sequenceNumber: 6, offset: undefined }]])),
        retentionHours: 24,
        clock: { now: () => NOW },
      },
      true,
    );
    expect(held).toMatchObject({ known: true, total: 3, oldestEnqueuedAt: NOW - 60_000 });
  });
});
