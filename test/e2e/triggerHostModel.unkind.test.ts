import { app, type InvocationContext } from '@azure/functions';
import { beforeAll, describe, expect, it } from 'vitest';

import { EventHubModel } from '../../sim/host/eventHubModel';
import { SimClock } from '../../sim/host/simClock';
import { type EventHubsExtension, TriggerHostModel } from '../../sim/host/triggerHostModel';

// The host model where Azure is unkind: restarts on settings changes, the old extension's checkpoint
// on shutdown, partitions moving during a retry, timeouts restarting the worker, crashes of an instance.

const seen: { instance: string; partition: string; sequences: number[]; retry: number }[] = [];
const world = {
  failing: new Set<string>(),
  /** `instance/partition` pairs whose invocations throw (one owner failing, another not). */
  failingOn: new Set<string>(),
  settings: 1,
  changeSettingsDuring: undefined as string | undefined,
};
const clock = new SimClock(0);

beforeAll(() => {
  app.eventHub('Unkind', {
    connection: 'EventHubConnection',
    eventHubName: 'hub',
    cardinality: 'many',
    retry: {
      strategy: 'exponentialBackoff',
      maxRetryCount: -1,
      minimumInterval: { seconds: 1 },
      maximumInterval: { seconds: 4 },
    },
    handler: (_messages: unknown, context: InvocationContext) => {
      const meta = context.triggerMetadata as {
        sequenceNumberArray: number[];
        partitionContext: { partitionId: string };
      };
      const partition = meta.partitionContext.partitionId;
      seen.push({
        instance: context.invocationId.split('-')[0] ?? '?',
        partition,
        sequences: meta.sequenceNumberArray,
        retry: context.retryContext?.retryCount ?? 0,
      });
      if (world.changeSettingsDuring === partition) {
        world.changeSettingsDuring = undefined;
        world.settings++; // e.g. the breaker's ARM write, while this invocation runs
      }
      if (world.failing.has(partition)) throw new Error('downstream down');
      if (world.failingOn.has(`${context.invocationId.split('-')[0] ?? '?'}/${partition}`))
        throw new Error('this instance cannot reach the downstream');
    },
  });
});

function setup(options: { partitions?: number; instances?: number; extension?: EventHubsExtension } = {}) {
  seen.length = 0;
  world.failing.clear();
  world.failingOn.clear();
  const restarts: string[] = [];
  const hub = new EventHubModel(options.partitions ?? 1);
  for (let i = 0; i < 6 * hub.partitionCount; i++)
    hub.sendTo(String(i % hub.partitionCount), Buffer.from(`e${i}`), {}, clock.now());
  const host = new TriggerHostModel({
    functionName: 'Unkind',
    hub,
    clock,
    isDisabled: () => Promise.resolve(false),
    settingsVersion: () => String(world.settings),
    onRestart: (reason) => {
      restarts.push(reason);
      return Promise.resolve();
    },
    maxBatchSize: 3,
    ...(options.instances ? { instances: options.instances } : {}),
    ...(options.extension ? { extension: options.extension } : {}),
  });
  return { hub, host, restarts };
}

const runs = () => seen.map((s) => [s.instance, s.partition, s.sequences, s.retry]);

describe('a settings change restarts the host', () => {
  it('ends the invocation in flight without a checkpoint and rebuilds the app, then re-delivers', async () => {
    const { host, restarts } = setup();
    world.changeSettingsDuring = '0';
    await host.tick();
    expect(host.invocations.map((i) => i.outcome)).toEqual(['killed']);
    expect(host.checkpoint('0')).toBe(0);
    await host.tick();
    expect(restarts).toEqual(['app settings changed']);
    expect(runs()).toEqual([
      ['i0', '0', [0, 1, 2], 0],
      ['i0', '0', [0, 1, 2], 0],
    ]);
    expect(host.checkpoint('0')).toBe(3);
  });

  it('drops a pending retry with extension 6.x: the held batch is delivered again from the checkpoint', async () => {
    const { host } = setup();
    world.failing.add('0');
    await host.tick();
    world.settings++;
    world.failing.clear();
    await host.tick();
    expect(runs()).toEqual([
      ['i0', '0', [0, 1, 2], 0],
      ['i0', '0', [0, 1, 2], 0],
    ]);
    expect(host.checkpointedOnShutdown).toEqual([]);
  });

  it('checkpoints past a pending retry with extension 5.x: the held batch is lost', async () => {
    const { host } = setup({ extension: '5.x' });
    world.failing.add('0');
    await host.tick();
    world.settings++;
    world.failing.clear();
    await host.tick();
    expect(runs()).toEqual([
      ['i0', '0', [0, 1, 2], 0],
      ['i0', '0', [3, 4, 5], 0],
    ]);
    expect(host.checkpointedOnShutdown.map((e) => e.sequenceNumber)).toEqual([0, 1, 2]);
  });
});

describe('a partition moving while its batch is retried', () => {
  it('the old owner keeps re-running the batch, the new owner reads from the checkpoint; only the owner checkpoints', async () => {
    const { host } = setup({ instances: 1 });
    world.failing.add('0');
    await host.tick(); // i0: [0,1,2] throws, retry pending
    expect(host.stealPartition('0')).toBe('i1');
    // Retry n is due min + r·2^(n−1)·min later, r in [0.8, 1.2): at most 2.2 s, then 3.4 s.
    clock.advance(2_200);
    await host.tick(); // i0 retries (1), i1 starts from the checkpoint: overlapping invocations
    world.failing.clear();
    clock.advance(3_400);
    await host.tick(); // i0's retry succeeds (no checkpoint: ownership lost); i1's retry succeeds
    expect(runs()).toEqual([
      ['i0', '0', [0, 1, 2], 0],
      ['i0', '0', [0, 1, 2], 1],
      ['i1', '0', [0, 1, 2], 0],
      ['i0', '0', [0, 1, 2], 2],
      ['i1', '0', [0, 1, 2], 1],
    ]);
    expect(host.checkpoint('0')).toBe(3);
    expect(host.instances.all.map((i) => i.pending.size)).toEqual([0, 0]);
  });
});

describe('a partition moving while its old owner retries (platform-facts: "Partition moves during a retry")', () => {
  it("freezes the old owner's balancing (its other partitions move too) and its late retry checkpoints backwards", async () => {
    const { host } = setup({ partitions: 2, instances: 1 });
    world.failingOn.add('i0/0');
    await host.tick(); // i0: partition 0 [0,1,2] throws (retry pending), partition 1 [0,1,2] ok
    expect(host.stealPartition('0')).toBe('i1');
    // i0 renews no lease while its retry loop waits: partition 1 lapses and i1 takes it as well.
    expect([host.instances.ownerOf('0'), host.instances.ownerOf('1')]).toEqual(['i1', 'i1']);
    await host.tick(); // i1: partition 0 [0,1,2] ok, partition 1 [3,4,5] ok
    await host.tick(); // i1: partition 0 [3,4,5] ok
    expect(host.checkpoint('0')).toBe(6);
    world.failingOn.clear();
    clock.advance(2_200);
    await host.tick(); // i0's retry finally succeeds and writes its checkpoint: behind i1's
    expect(host.backwardsCheckpoints).toEqual([{ partitionId: '0', at: clock.now(), to: 3 }]);
    expect(host.checkpoint('0')).toBe(3);
    await host.tick(); // i1 reads from the moved-back checkpoint: [3,4,5] again (duplicates, not loss)
    expect(runs().slice(-1)).toEqual([['i1', '0', [3, 4, 5], 0]]);
    expect(host.checkpoint('0')).toBe(6);
  });
});

describe('timeouts and crashes', () => {
  it('a timeout is a failed attempt that is re-run, and restarts the worker: the instance fails every invocation in flight', async () => {
    const { host, restarts } = setup({ partitions: 3, instances: 2 });
    host.timeoutNextInvocation('0'); // partitions 0 and 2 are on i0, 1 on i1
    await host.tick();
    expect(host.invocations.map((i) => [i.instanceId, i.partitionId, i.outcome])).toEqual([
      ['i0', '0', 'timed-out'],
      ['i0', '2', 'threw'],
      ['i1', '1', 'returned'],
    ]);
    expect([host.checkpoint('0'), host.checkpoint('1'), host.checkpoint('2')]).toEqual([0, 3, 0]);
    expect(restarts).toEqual(['worker restarted']);
    clock.advance(2_200); // the first retry: min + r·min, r in [0.8, 1.2)
    await host.tick();
    expect(seen.slice(3).map((s) => [s.partition, s.sequences, s.retry])).toEqual([
      ['0', [0, 1, 2], 1],
      ['2', [0, 1, 2], 1],
      ['1', [3, 4, 5], 0],
    ]);
  });

  it('a crash loses every partition of the instance, retry loops included, not one', async () => {
    const { host } = setup({ partitions: 3, instances: 2 });
    world.failing.add('2');
    await host.tick(); // i0: 0 ok, 2 pending; i1: 1 ok
    world.failing.clear();
    host.crashNextInvocation('0');
    clock.advance(2_200); // the first retry of partition 2 is due
    await host.tick();
    expect(host.invocations.slice(3).map((i) => [i.instanceId, i.partitionId, i.outcome])).toEqual([
      ['i0', '2', 'crashed'],
      ['i0', '0', 'crashed'],
      ['i1', '1', 'returned'],
    ]);
    expect(host.instances.get('i0').pending.size).toBe(0);
    await host.tick(); // re-delivered from the checkpoints, retry counts back at 0
    expect(seen.slice(6).map((s) => [s.partition, s.sequences, s.retry])).toEqual([
      ['0', [3, 4, 5], 0],
      ['2', [0, 1, 2], 0],
    ]);
  });
});
