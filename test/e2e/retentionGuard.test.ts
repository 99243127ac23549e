/**
 * The retention guard end to end (G7): a trip nobody approves for most of the hub's retention. The
 * watchdog's guard saves what waits to blobs and moves the checkpoint past it; a late approval drains
 * the saved events to the sink before the trigger starts again, so later events of each key come after.
 */
import { BlobServiceClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { invokeRpc, type LogLine } from '../../sim/host/fakeFunctionsCore';
import { FUNCTION_KEY } from '../../sim/world/breakwaterWorld';
import { CHECKPOINT_CONTAINER, checkpointPrefix } from '../../src/hub/checkpoints';
import { parseTelemetryLine, telemetry } from '../../src/kernel/telemetryNames';
import { readCheckpointBlob } from '../../src/retention/checkpointMove';
import { makeSavedEvents } from '../../src/retention/savedEvents';
import { jsonBody, reading } from '../support/sensorEvents';
import { HeldBacklogWorld } from './worlds/heldBacklogWorld';

const MINUTE = 60_000;
let w: HeldBacklogWorld;
const logs: LogLine[] = [];
let link: string;
let n = 0;
/** The newest event sent per key (`homeId/sensorId`): partition/sequence. */
const newest = new Map<string, string>();

/** Readings of 6 keys (3 homes × 2 sensors), each a newer version of its key. */
function send(count: number, run: string): void {
  for (let i = 0; i < count; i++, n++) {
    const homeId = `home-${n % 3}`;
    const at = new Date(w.world.clock.now() + n).toISOString();
    const sensorId = `door-${n % 2}`;
    const e = w.hub.send(
      homeId,
      jsonBody(reading({ homeId, sensorId, occurredAt: at })),
      { run },
      w.world.clock.now(),
    );
    newest.set(`${homeId}/${sensorId}`, `${e.partitionId}/${e.sequenceNumber}`);
  }
}

async function watchdogMinute(): Promise<void> {
  w.world.clock.advance(MINUTE);
  await invokeRpc('BreakerWatchdog', {
    trigger: { json: JSON.stringify({ isPastDue: false }) },
    inputData: w.world.durableClientInput('BreakerWatchdog'),
    logs,
  }).catch(() => undefined);
  await w.world.durable.catchUp();
}

const lines = (name: string) =>
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

let heldAtTrip = 0;
/** `partition/sequence` of every event the guard saved. */
const savedIds = new Set<string>();
let savedAfterMinutes = 0;
let writesBeforeSave = 0;
let heldAtTripView:
  | {
      line: string;
      guardSavesAt: string | null;
      retentionEndsAt: string | null;
      timeToFirstLossMs: number | null;
    }
  | undefined;

beforeAll(async () => {
  w = await HeldBacklogWorld.create(inject('storageConnectionString'), 4, {
    EVENTHUB_RETENTION_HOURS: '1',
    RETENTION_SAVE_MARGIN_MINUTES: '15',
    RETENTION_GUARD_ENABLED: 'true',
  });
  send(20, 'early');
  await w.second();
  await w.second();
  w.world.downstreamDown = true;
  send(60, 'held');
  link = await w.untilTrippedAndDisabled();
  heldAtTrip = w.truth().reduce((s, t) => s + t.held, 0);
  writesBeforeSave = w.world.writes.length;
  heldAtTripView = (
    (await (await fetch(`${w.world.http.baseUrl}/api/breaker/status?code=${FUNCTION_KEY}`)).json()) as {
      held: typeof heldAtTripView;
    }
  ).held;
  // Forty minutes pass in one step (the guard runs at the end of it and finds the events in time),
  // then the watchdog runs every minute.
  w.world.clock.advance(39 * MINUTE);
  for (let minute = 40; minute <= 60; minute++) {
    await watchdogMinute();
    if (lines(telemetry.retentionSaved.name).length > 0) {
      savedAfterMinutes = minute;
      break;
    }
  }
}, 120_000);
afterAll(() => w.close());

describe('the retention guard', () => {
  it('the status API gives the deadline: the first loss, and when the guard saves unless approved', () => {
    const left = heldAtTripView?.timeToFirstLossMs ?? 0;
    expect(left).toBeGreaterThan(55 * MINUTE);
    expect(left).toBeLessThanOrEqual(60 * MINUTE);
    // The margin is 15 minutes: the guard saves 15 minutes before the first loss.
    const firstLoss = Date.parse(heldAtTripView?.retentionEndsAt ?? '');
    expect(firstLoss - Date.parse(heldAtTripView?.guardSavesAt ?? '')).toBe(15 * MINUTE);
    expect(heldAtTripView?.line).toMatch(
      /the first loss in 5\d min \(at .*\): saved before the deadline by the retention guard at .* UTC unless approved/,
    );
  });

  it('saves every waiting event once the oldest is within the margin of the retention, without the downstream', async () => {
    expect(heldAtTrip).toBeGreaterThan(20);
    // The oldest waiting event was sent about a minute before the trip: 60 − 15 = 45 min of waiting.
    expect(savedAfterMinutes).toBeGreaterThanOrEqual(43);
    expect(savedAfterMinutes).toBeLessThanOrEqual(46);
    const records = lines(telemetry.retentionSaved.name);
    expect(records.reduce((s, r) => s + Number(r.saved), 0)).toBe(heldAtTrip);
    expect((await saved().count()).total).toBe(heldAtTrip);
    for (const id of w.hub.partitionIds)
      for (const seq of await saved().sequenceNumbers(id)) savedIds.add(`${id}/${seq}`);
    expect(w.world.writes.length).toBe(writesBeforeSave);
    expect(lines(telemetry.retentionSaveFailed.name)).toEqual([]);
    // The status API says how many, where, and how they come back.
    const status = (await (
      await fetch(`${w.world.http.baseUrl}/api/breaker/status?code=${FUNCTION_KEY}`)
    ).json()) as { saved: { total: number; where: string; comeBack: string } | null };
    expect(status.saved?.total).toBe(heldAtTrip);
    expect(status.saved?.where).toContain(
      `saved/<partition>/ in container ${w.world.env.DEAD_LETTER_CONTAINER ?? ''}`,
    );
    expect(status.saved?.comeBack).toMatch(/before the trigger is enabled/);
  });

  it('moves each checkpoint blob to the last saved event, and no further', async () => {
    const container = BlobServiceClient.fromConnectionString(
      inject('storageConnectionString'),
    ).getContainerClient(CHECKPOINT_CONTAINER);
    const prefix = checkpointPrefix('127.0.0.1', w.world.env.EVENTHUB_NAME ?? '', 'breakwater');
    for (const id of w.hub.partitionIds) {
      const blob = await readCheckpointBlob(container, prefix, id);
      const seqs = await saved().sequenceNumbers(id);
      if (seqs.length === 0) continue;
      expect(blob.sequenceNumber).toBe(seqs[seqs.length - 1]);
      expect(blob.sequenceNumber).toBe(w.hub.size(id) - 1);
    }
  });

  it('after a late approval, drains the saved events before any later event of their key, then resumes', async () => {
    send(12, 'after-save');
    // Nobody approves until well past the retention: the hub drops the saved events meanwhile.
    w.world.clock.advance(29 * MINUTE);
    await watchdogMinute();
    const expired = w.hub.expired();
    expect(expired.length).toBeGreaterThanOrEqual(heldAtTrip);
    const processedBefore = new Set(w.world.writes.map((x) => `${x.partitionId}/${x.sequenceNumber}`));
    const lost = expired.filter(
      (e) =>
        !savedIds.has(`${e.partitionId}/${e.sequenceNumber}`) &&
        e.sequenceNumber >= 0 &&
        !processedBefore.has(`${e.partitionId}/${e.sequenceNumber}`),
    );
    // Lost = expired without being saved or processed (the first batches' superseded events count as processed).
    expect(lost.filter((e) => (e.properties as { run?: string }).run === 'held')).toEqual([]);
    w.world.downstreamDown = false;
    const approval = await w.world.approve(link, 'Late Approver');
    expect(approval.postStatus).toBe(200);
    for (let s = 0; s < 180 && !(w.host.isListening && w.host.drained); s++) await w.second();
    expect(w.host.isListening).toBe(true);
    expect(w.host.drained).toBe(true);
    expect((await saved().count()).total).toBe(0);

    const firstWrites = new Map<string, number[]>();
    const seen = new Set<string>();
    for (const write of w.world.writes) {
      const id = `${write.partitionId}/${write.sequenceNumber}`;
      if (seen.has(id)) continue;
      seen.add(id);
      firstWrites.set(write.key, [...(firstWrites.get(write.key) ?? []), write.sequenceNumber]);
    }
    // Each key's events first reached the sink in sequence order (a batch writes only the newest of a
    // key, so not every event is a write), and every key's newest event was written.
    for (const [key, seqs] of firstWrites)
      expect({ key, seqs }).toEqual({ key, seqs: [...seqs].sort((a, b) => a - b) });
    expect(newest.size).toBe(6);
    for (const [key, last] of newest)
      expect({ key, written: seen.has(last) }).toEqual({ key, written: true });
    // The saved events were drained in the orchestration, before the re-enable.
    const drainWrites = w.world.writes.filter((x) => x.invocationId === '?' || x.instanceId === '?');
    expect(drainWrites.length).toBeGreaterThan(0);
  });
});
