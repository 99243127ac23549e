import { app, type InvocationContext } from '@azure/functions';
import { beforeAll, describe, expect, it } from 'vitest';

import { EventHubModel } from '../../sim/host/eventHubModel';
import { SimClock } from '../../sim/host/simClock';
import { TriggerHostModel } from '../../sim/host/triggerHostModel';

// The host model is test support; these tests pin down that it behaves as the platform documents
// (checkpoint after completion, retries hold the checkpoint, disabled stops the listener, crash
// re-delivers) using small functions registered through the real programming model.

const seen: { fn: string; partition: string; sequences: number[]; retry: number }[] = [];
let failUntil = 0;

function register(name: string, maxRetryCount: number) {
  app.eventHub(name, {
    connection: 'EventHubConnection',
    eventHubName: 'hub',
    cardinality: 'many',
    retry: {
      strategy: 'exponentialBackoff',
      maxRetryCount,
      minimumInterval: { seconds: 1 },
      maximumInterval: { seconds: 4 },
    },
    handler: (messages: unknown, context: InvocationContext) => {
      const meta = context.triggerMetadata as {
        sequenceNumberArray: number[];
        partitionContext: { partitionId: string };
      };
      seen.push({
        fn: name,
        partition: meta.partitionContext.partitionId,
        sequences: meta.sequenceNumberArray,
        retry: context.retryContext?.retryCount ?? 0,
      });
      expect(Array.isArray(messages)).toBe(true);
      if (clock.now() < failUntil) throw new Error('downstream down');
    },
  });
}

const clock = new SimClock(0);
beforeAll(() => {
  register('Forever', -1);
  register('TwoRetries', 2);
});

function setup(fn: string, events: number, partitions = 1, maxBatchSize = 3) {
  seen.length = 0;
  let disabled = false;
  const hub = new EventHubModel(partitions);
  for (let i = 0; i < events; i++) hub.sendTo(String(i % partitions), Buffer.from(`e${i}`), {}, clock.now());
  const host = new TriggerHostModel({
    functionName: fn,
    hub,
    clock,
    isDisabled: () => Promise.resolve(disabled),
    maxBatchSize,
  });
  return { hub, host, setDisabled: (d: boolean) => (disabled = d) };
}

describe('the trigger host model', () => {
  it('delivers batches of at most maxEventBatchSize in order and checkpoints after each', async () => {
    const { host } = setup('Forever', 7);
    for (let i = 0; i < 3; i++) await host.tick();
    expect(seen.map((s) => s.sequences)).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(host.checkpoint('0')).toBe(7);
    expect(host.drained).toBe(true);
  });

  it('re-runs a batch that threw after the retry delay, holding the checkpoint', async () => {
    const { host } = setup('Forever', 3);
    failUntil = clock.now() + 2_500;
    await host.tick();
    await host.tick(); // not due yet: nothing runs
    expect(seen).toHaveLength(1);
    // The host's delays: min + r·2^(n−1)·min with r in [0.8, 1.2), so at most 2.2 s, then 3.4 s.
    clock.advance(2_200);
    await host.tick(); // retry 1, still failing
    clock.advance(3_400);
    await host.tick(); // retry 2, downstream back
    expect(seen.map((s) => [s.sequences, s.retry])).toEqual([
      [[0, 1, 2], 0],
      [[0, 1, 2], 1],
      [[0, 1, 2], 2],
    ]);
    expect(host.checkpoint('0')).toBe(3);
    expect(host.checkpointedAfterFailure).toEqual([]);
  });

  it('checkpoints past a batch when a finite retry policy runs out (what loses events)', async () => {
    const { host } = setup('TwoRetries', 3);
    failUntil = clock.now() + 1_000_000;
    for (let i = 0; i < 4; i++) {
      await host.tick();
      clock.advance(10_000);
    }
    expect(seen.map((s) => s.retry)).toEqual([0, 1, 2]);
    expect(host.checkpoint('0')).toBe(3);
    expect(host.checkpointedAfterFailure.map((e) => e.sequenceNumber)).toEqual([0, 1, 2]);
    failUntil = 0;
  });

  it('stops listening while disabled, abandoning the pending retry, and resumes from the checkpoint', async () => {
    const { host, setDisabled } = setup('Forever', 4);
    failUntil = clock.now() + 1;
    await host.tick(); // [0,1,2] throws, retry pending
    setDisabled(true);
    clock.advance(10_000);
    await host.tick();
    expect(host.isListening).toBe(false);
    setDisabled(false);
    await host.tick(); // re-delivered from the checkpoint as a fresh batch (retry count 0)
    await host.tick();
    expect(seen.map((s) => [s.sequences, s.retry])).toEqual([
      [[0, 1, 2], 0],
      [[0, 1, 2], 0],
      [[3], 0],
    ]);
    expect(host.drained).toBe(true);
  });

  it('re-delivers the batch of a crashed invocation', async () => {
    const { host } = setup('Forever', 3);
    host.crashNextInvocation('0');
    await host.tick();
    expect(host.checkpoint('0')).toBe(0);
    await host.tick();
    expect(seen.map((s) => s.sequences)).toEqual([
      [0, 1, 2],
      [0, 1, 2],
    ]);
    expect(host.checkpoint('0')).toBe(3);
  });

  it('runs partitions concurrently, one invocation at a time per partition', async () => {
    const { host } = setup('Forever', 8, 4, 10);
    await host.tick();
    expect(seen.map((s) => [s.partition, s.sequences]).sort()).toEqual([
      ['0', [0, 1]],
      ['1', [0, 1]],
      ['2', [0, 1]],
      ['3', [0, 1]],
    ]);
  });
});
