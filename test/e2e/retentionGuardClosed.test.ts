/**
 * The retention guard for a partition held while the breaker stays CLOSED (G7, "every wait is covered"):
 * the downstream fails below the trip threshold, so the retry policy holds the batch and the partition
 * waits. The running listener never re-reads the checkpoint the guard moves: the held batch's next
 * re-run drains the saved events first and counts its own saved events as done.
 */
import { BlobServiceClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { invokeRpc, type LogLine } from '../../sim/host/fakeFunctionsCore';
import { parseTelemetryLine, telemetry } from '../../src/kernel/telemetryNames';
import { makeSavedEvents } from '../../src/retention/savedEvents';
import { jsonBody, reading } from '../support/sensorEvents';
import { HeldBacklogWorld } from './worlds/heldBacklogWorld';

const MINUTE = 60_000;
let w: HeldBacklogWorld;
const logs: LogLine[] = [];
let n = 0;
const newest = new Map<string, string>();
const savedIds = new Set<string>();
let savedCount = 0;
const beats: Record<string, unknown>[] = [];

function send(count: number): void {
  for (let i = 0; i < count; i++, n++) {
    const homeId = `home-${n % 3}`;
    const sensorId = `door-${n % 2}`;
    const at = new Date(w.world.clock.now() + n).toISOString();
    const e = w.hub.send(
      homeId,
      jsonBody(reading({ homeId, sensorId, occurredAt: at })),
      {},
      w.world.clock.now(),
    );
    newest.set(`${homeId}/${sensorId}`, `${e.partitionId}/${e.sequenceNumber}`);
  }
}

async function watchdog(): Promise<void> {
  await invokeRpc('BreakerWatchdog', {
    trigger: { json: JSON.stringify({ isPastDue: false }) },
    inputData: w.world.durableClientInput('BreakerWatchdog'),
    logs,
  }).catch(() => undefined);
}

const records = (name: string) =>
  logs.flatMap((l) => {
    const parsed = parseTelemetryLine(l.message);
    return parsed?.name === name ? [parsed.fields] : [];
  });

const saved = () =>
  makeSavedEvents(
    BlobServiceClient.fromConnectionString(inject('storageConnectionString')).getContainerClient(
      w.world.env.DEAD_LETTER_CONTAINER ?? '',
    ),
  );

beforeAll(async () => {
  w = await HeldBacklogWorld.create(inject('storageConnectionString'), 2, {
    EVENTHUB_RETENTION_HOURS: '1',
    RETENTION_SAVE_MARGIN_MINUTES: '15',
    RETENTION_GUARD_ENABLED: 'true',
    // The downstream fails below the threshold: the breaker never trips, the batches are held.
    BREAKER_THRESHOLD: '100000',
  });
  w.world.downstreamDown = true;
  send(24);
  for (let s = 0; s < 5; s++) await w.second();
  await watchdog();
  w.world.clock.advance(45 * MINUTE);
  await w.second();
  await watchdog();
  await watchdog();
  beats.push(...records(telemetry.heartbeat.name));
  savedCount = (await saved().count()).total;
  for (const id of w.hub.partitionIds)
    for (const seq of await saved().sequenceNumbers(id)) savedIds.add(`${id}/${seq}`);
  // Still down for a while: the re-runs cannot drain yet and keep holding.
  for (let s = 0; s < 10; s++) await w.second();
}, 120_000);
afterAll(() => w.close());

describe('the retention guard while the breaker is CLOSED', () => {
  it('saves the held partitions although the breaker never tripped', async () => {
    expect(w.world.approvalLinks()).toEqual([]);
    expect(savedCount).toBe(24);
    expect(records(telemetry.retentionSaved.name).reduce((s, r) => s + Number(r.saved), 0)).toBe(24);
    // While the downstream is down the held batch stays held: the saved events are still there.
    expect((await saved().count()).total).toBe(24);
  });

  it('the heartbeat says the time until the first loss, then how many the guard saved', () => {
    // A tick's heartbeat comes before its guard run: each reports the run of the tick before.
    expect(beats.map((b) => [b.timeToFirstLossSeconds, b.savedEvents])).toEqual([
      [null, null],
      [expect.any(Number), 0],
      [null, 24],
    ]);
    const left = Number(beats[1]?.timeToFirstLossSeconds);
    // The oldest was enqueued an hour's retention before the loss, 45 minutes and a few seconds ago.
    expect(left).toBeGreaterThan(14 * 60);
    expect(left).toBeLessThanOrEqual(15 * 60);
  });

  it('the held batch drains the saved events first once the downstream is back, past the retention: nothing lost', async () => {
    w.world.clock.advance(20 * MINUTE);
    expect(w.hub.expired().length).toBe(24);
    w.world.downstreamDown = false;
    for (let s = 0; s < 60 && (await saved().count()).total > 0; s++) await w.second();
    for (let s = 0; s < 10; s++) await w.second();
    expect((await saved().count()).total).toBe(0);
    const written = new Set(w.world.writes.map((x) => `${x.partitionId}/${x.sequenceNumber}`));
    for (const [key, last] of newest)
      expect({ key, written: written.has(last) }).toEqual({ key, written: true });
    const lost = w.hub.expired().filter((e) => !savedIds.has(`${e.partitionId}/${e.sequenceNumber}`));
    expect(lost).toEqual([]);
    const firstWrites = new Map<string, number[]>();
    const seen = new Set<string>();
    for (const x of w.world.writes) {
      const id = `${x.partitionId}/${x.sequenceNumber}`;
      if (seen.has(id)) continue;
      seen.add(id);
      firstWrites.set(x.key, [...(firstWrites.get(x.key) ?? []), x.sequenceNumber]);
    }
    for (const [key, seqs] of firstWrites)
      expect({ key, seqs }).toEqual({ key, seqs: [...seqs].sort((a, b) => a - b) });
  });
});
