/**
 * The retention guard under faults, against the real clients: the hub behind the Event Hubs peer,
 * the checkpoints and saved blobs on Azurite (a fault proxy in front of the saved events' blob endpoint).
 * A save that cannot complete is loud and retried, never a silent checkpoint move; a save interrupted
 * part-way duplicates, never loses; a concurrent checkpoint write is never overwritten.
 */
import { EventHubConsumerClient } from '@azure/event-hubs';
import { BlobServiceClient, type ContainerClient } from '@azure/storage-blob';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';

import { type EventHubsPeer, startEventHubsPeer } from '../../sim/eventHubsPeer/eventHubsPeer';
import { EventHubModel } from '../../sim/host/eventHubModel';
import { hostCheckpointWriter } from '../../sim/host/hostCheckpoints';
import { endpointPort, type FaultProxy, startFaultProxy, withEndpointPort } from '../../sim/net/faultProxy';
import { blobPartitionLease } from '../../src/deadLetters/partitionLease';
import { checkpointPrefix } from '../../src/hub/checkpoints';
import { makeHubEventReader } from '../../src/hub/hubEventReader';
import { makeEventHubReader } from '../../src/hub/hubReader';
import { parseTelemetryLine, telemetry } from '../../src/kernel/telemetryNames';
import { readCheckpointBlob } from '../../src/retention/checkpointMove';
import { type RetentionGuardDeps, runRetentionGuard } from '../../src/retention/retentionGuard';
import { makeSavedEvents, type SavedEvents } from '../../src/retention/savedEvents';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
const KEY = { name: 'RootManageSharedAccessKey', key: 'guard-faults-key' };
const clock = { now: T0 };
let peer: EventHubsPeer;
let started = false;
let client: EventHubConsumerClient;
let proxy: FaultProxy;
let checkpoints: ContainerClient;
let savedDirect: SavedEvents;
let savedThroughProxy: SavedEvents;
let leases: ContainerClient;
let hub: EventHubModel;
let hubName: string;
let prefix: string;
let lines: string[];
const logger = {
  log: (m: unknown) => lines.push(String(m)),
  warn: (m: unknown) => lines.push(String(m)),
  error: (m: unknown) => lines.push(String(m)),
};
const records = (name: string) =>
  lines.flatMap((l) => {
    const p = parseTelemetryLine(l);
    return p?.name === name ? [p.fields] : [];
  });

beforeAll(async () => {
  proxy = await startFaultProxy(endpointPort(inject('storageConnectionString'), 'BlobEndpoint'));
});
afterAll(async () => {
  await client.close();
  await peer.close();
  await proxy.close();
});

/** A fresh hub of 2 partitions with 30 events each, sent at T0; partition 0's host processed 0..4. */
beforeEach(async () => {
  if (started) {
    await client.close();
    await peer.close();
  }
  clock.now = T0;
  lines = [];
  proxy.setRule(undefined);
  hub = new EventHubModel(2, { retentionMs: HOUR, now: () => clock.now });
  hubName = `guard-${Math.random().toString(36).slice(2, 8)}`;
  started = true;
  peer = await startEventHubsPeer({
    hubName,
    store: hub,
    keys: [KEY],
    consumerGroups: ['g'],
    clock: () => clock.now,
  });
  for (let i = 0; i < 60; i++) hub.sendTo(String(i % 2), Buffer.from(`{"n":${i}}`), { n: i }, T0);
  client = new EventHubConsumerClient('g', peer.connectionString(), hubName, {
    retryOptions: { maxRetries: 0 },
  });
  const cs = inject('storageConnectionString');
  const id = Math.random().toString(36).slice(2, 8);
  checkpoints = BlobServiceClient.fromConnectionString(cs).getContainerClient(`cp-${id}`);
  prefix = checkpointPrefix('127.0.0.1', hubName, 'g');
  await hostCheckpointWriter(checkpoints, {
    fullyQualifiedNamespace: '127.0.0.1',
    hubName,
    consumerGroup: 'g',
  })('0', { sequenceNumber: 4, offset: '4096' });
  // The proxy closes idle sockets at once: a quick retry for those, not the SDK's long default.
  const retry = { retryOptions: { maxTries: 3, retryDelayInMs: 10, maxRetryDelayInMs: 20 } };
  savedDirect = makeSavedEvents(BlobServiceClient.fromConnectionString(cs).getContainerClient(`dl-${id}`));
  savedThroughProxy = makeSavedEvents(
    BlobServiceClient.fromConnectionString(
      withEndpointPort(cs, 'BlobEndpoint', proxy.port),
      retry,
    ).getContainerClient(`dl-${id}`),
  );
  leases = BlobServiceClient.fromConnectionString(cs).getContainerClient(`dl-${id}`);
  // 46 minutes later: within the 15-minute margin of the one-hour retention.
  clock.now = T0 + 46 * 60_000;
});

function deps(overrides: Partial<RetentionGuardDeps> = {}): RetentionGuardDeps {
  return {
    retentionMs: HOUR,
    marginMs: 15 * 60_000,
    hub: makeEventHubReader(client),
    events: makeHubEventReader(() => client),
    checkpoints: { container: checkpoints, prefix },
    saved: savedThroughProxy,
    lease: blobPartitionLease(leases, 'retention-guard'),
    clock: { now: () => clock.now },
    savedWhere: 'the test container',
    ...overrides,
  };
}

const checkpointOf = async (id: string) => (await readCheckpointBlob(checkpoints, prefix, id)).sequenceNumber;

describe('the retention guard under faults', () => {
  it('does nothing while the oldest waiting event is outside the margin', async () => {
    clock.now = T0 + 44 * 60_000;
    const run = await runRetentionGuard(deps(), logger);
    expect(run.partitions.map((p) => p.outcome)).toEqual(['in-time', 'in-time']);
    expect((await savedDirect.count()).total).toBe(0);
  });

  it('saves from the first minute of the margin: 1 ms before it nothing, at its edge every waiting event', async () => {
    // The events were enqueued at T0: the margin of 15 min before the 1 h retention begins at T0 + 45 min.
    clock.now = T0 + 45 * 60_000 - 1;
    const before = await runRetentionGuard(deps(), logger);
    expect(before.partitions.map((p) => p.outcome)).toEqual(['in-time', 'in-time']);
    clock.now = T0 + 45 * 60_000;
    const at = await runRetentionGuard(deps(), logger);
    expect(at.partitions.map((p) => p.outcome)).toEqual(['saved', 'saved']);
    expect(at.saved).toBe(25 + 30);
  });

  it('storage down part-way through a save: loud, no checkpoint move; the next run saves all, duplicates only', async () => {
    // Blob writes of partition 0's events from sequence 15 on fail (503), as when storage goes away.
    proxy.setRule(({ method, url }) => {
      const m = /saved\/0\/(\d+)\.json/.exec(url);
      return method === 'PUT' && m && Number(m[1]) >= 15 ? 503 : undefined;
    });
    const first = await runRetentionGuard(deps(), logger);
    expect(first.partitions.find((p) => p.partitionId === '0')).toMatchObject({ outcome: 'failed' });
    expect(first.partitions.find((p) => p.partitionId === '1')).toMatchObject({
      outcome: 'saved',
      saved: 30,
    });
    const failed = records(telemetry.retentionSaveFailed.name);
    expect(failed).toEqual([expect.objectContaining({ partitionId: '0', minutesLeft: 14 })]);
    expect(await checkpointOf('0')).toBe(4);
    const partial = await savedDirect.sequenceNumbers('0');
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(25);

    proxy.setRule(undefined);
    const second = await runRetentionGuard(deps(), logger);
    expect(second.partitions.find((p) => p.partitionId === '0')).toMatchObject({
      outcome: 'saved',
      saved: 25,
      from: 5,
      through: 29,
    });
    expect(await checkpointOf('0')).toBe(29);
    expect(await savedDirect.sequenceNumbers('0')).toEqual(Array.from({ length: 25 }, (_, i) => i + 5));
  });

  it('the hub read failing: loud, nothing saved, no checkpoint moved', async () => {
    const wrongKey = new EventHubConsumerClient(
      'g',
      peer.connectionString({ name: KEY.name, key: 'not-the-key' }),
      hubName,
      { retryOptions: { maxRetries: 0, timeoutInMs: 2_000 } },
    );
    try {
      const run = await runRetentionGuard(deps({ hub: makeEventHubReader(wrongKey) }), logger);
      expect(run.failure).toBeDefined();
      expect(String(records(telemetry.retentionSaveFailed.name)[0]?.reason)).toMatch(
        /could not read the hub/,
      );
      expect(records(telemetry.retentionSaveFailed.name)).toEqual([
        expect.objectContaining({ partitionId: null }),
      ]);
    } finally {
      await wrongKey.close();
    }
    expect(await checkpointOf('0')).toBe(4);
    expect((await savedDirect.count()).total).toBe(0);
  });

  it('the host checkpoints during the save: its checkpoint is never overwritten, the next run goes on from it', async () => {
    const host = hostCheckpointWriter(checkpoints, {
      fullyQualifiedNamespace: '127.0.0.1',
      hubName,
      consumerGroup: 'g',
    });
    let wrote = false;
    const racing: SavedEvents = {
      ...savedThroughProxy,
      async save(events) {
        await savedThroughProxy.save(events);
        if (!wrote && events[0]?.partitionId === '0') {
          wrote = true;
          await host('0', { sequenceNumber: 9, offset: '9216' });
        }
      },
    };
    const first = await runRetentionGuard(deps({ saved: racing }), logger);
    expect(first.partitions.find((p) => p.partitionId === '0')).toMatchObject({ outcome: 'failed' });
    expect(await checkpointOf('0')).toBe(9);
    const second = await runRetentionGuard(deps(), logger);
    expect(second.partitions.find((p) => p.partitionId === '0')).toMatchObject({
      outcome: 'saved',
      from: 10,
      through: 29,
    });
    expect(await checkpointOf('0')).toBe(29);
  });

  it('the host checkpoints while the guard waits for the lease: it saves nothing it read before, only from the new checkpoint', async () => {
    const host = hostCheckpointWriter(checkpoints, {
      fullyQualifiedNamespace: '127.0.0.1',
      hubName,
      consumerGroup: 'g',
    });
    const lease = blobPartitionLease(leases, 'retention-guard');
    const saves: number[] = [];
    const counting: SavedEvents = {
      ...savedThroughProxy,
      async save(events) {
        for (const e of events) if (e.partitionId === '0') saves.push(e.sequenceNumber ?? -1);
        await savedThroughProxy.save(events);
      },
    };
    // Between the guard's first read (checkpoint 4) and its lease, the host processes through 9.
    const racingLease: RetentionGuardDeps['lease'] = async (partitionId) => {
      if (partitionId === '0') await host('0', { sequenceNumber: 9, offset: '9216' });
      return lease(partitionId);
    };
    const first = await runRetentionGuard(deps({ saved: counting, lease: racingLease }), logger);
    expect(first.partitions.find((p) => p.partitionId === '0')).toMatchObject({ outcome: 'locked' });
    expect(saves).toEqual([]);
    expect(await checkpointOf('0')).toBe(9);
    const second = await runRetentionGuard(deps({ saved: counting }), logger);
    expect(second.partitions.find((p) => p.partitionId === '0')).toMatchObject({ from: 10, through: 29 });
    expect(Math.min(...saves)).toBe(10);
  });

  it('the host checkpoints the very last saved event during the save: the save is done, not a failure', async () => {
    const host = hostCheckpointWriter(checkpoints, {
      fullyQualifiedNamespace: '127.0.0.1',
      hubName,
      consumerGroup: 'g',
    });
    const racing: SavedEvents = {
      ...savedThroughProxy,
      async save(events) {
        await savedThroughProxy.save(events);
        if (events[0]?.partitionId === '0') await host('0', { sequenceNumber: 29, offset: '29696' });
      },
    };
    const run = await runRetentionGuard(deps({ saved: racing }), logger);
    expect(run.partitions.find((p) => p.partitionId === '0')).toMatchObject({
      outcome: 'saved',
      from: 5,
      through: 29,
    });
    expect(records(telemetry.retentionSaveFailed.name)).toEqual([]);
    expect(await checkpointOf('0')).toBe(29);
  });

  it('two instances at once: each partition is saved by one of them, and no run fails', async () => {
    // Each instance has its own client (one client subscribes to a partition once at a time).
    const other = new EventHubConsumerClient('g', peer.connectionString(), hubName, {
      retryOptions: { maxRetries: 0 },
    });
    const otherDeps = deps({ hub: makeEventHubReader(other), events: makeHubEventReader(() => other) });
    const [a, b] = await Promise.all([
      runRetentionGuard(deps(), logger),
      runRetentionGuard(otherDeps, logger),
    ]).finally(() => other.close());
    for (const id of ['0', '1']) {
      const outcomes = [a, b].map((r) => r.partitions.find((p) => p.partitionId === id)?.outcome);
      expect(outcomes.filter((o) => o === 'saved')).toHaveLength(1);
      expect(outcomes).not.toContain('failed');
    }
    expect(await checkpointOf('0')).toBe(29);
    expect(await checkpointOf('1')).toBe(29);
  });

  it('an instance that died holding the partition: the next run leaves it to the lease, nothing moves', async () => {
    const dead = await blobPartitionLease(leases, 'retention-guard')('0');
    expect(dead).toBeDefined();
    const run = await runRetentionGuard(deps(), logger);
    expect(run.partitions.find((p) => p.partitionId === '0')).toMatchObject({ outcome: 'locked' });
    expect(await checkpointOf('0')).toBe(4);
    await dead?.release();
    const after = await runRetentionGuard(deps(), logger);
    expect(after.partitions.find((p) => p.partitionId === '0')).toMatchObject({ outcome: 'saved' });
  });
});
