/**
 * The failed-drain world (test/e2e/drainRetry*.test.ts): a trip nobody approves until the retention
 * guard saved what waits, then an approval while the downstream is still down.
 */
import { BlobServiceClient } from '@azure/storage-blob';
import { expect, inject } from 'vitest';

import { type RedisService, startRedis } from '../../../sim/services/redis';
import { FUNCTION_KEY } from '../../../sim/world/breakwaterWorld';
import { makeSavedEvents } from '../../../src/retention/savedEvents';
import { jsonBody, reading } from '../../support/sensorEvents';
import { HeldBacklogWorld } from './heldBacklogWorld';

const MINUTE = 60_000;
const seq = (id: string) => Number(id.split('/')[1]);

/** One scenario's world (the Table breaker store, or Redis with a server the test may restart) and what it sent. */
export function scenario(store: 'table' | 'redis' = 'table') {
  const s = {
    w: undefined as unknown as HeldBacklogWorld,
    redis: undefined as RedisService | undefined,
    link: '',
    n: 0,
    /** Every event sent, `partition/sequence`. */
    sent: [] as string[],
    /** The newest event sent per key (`homeId/sensorId`). */
    newest: new Map<string, string>(),
    /** The key of every event sent, by `partition/sequence`. */
    keyOf: new Map<string, string>(),
    savedIds: new Set<string>(),
    heldAtTrip: 0,
  };
  const send = (count: number, run: string) => {
    for (let i = 0; i < count; i++, s.n++) {
      const homeId = `home-${s.n % 3}`;
      const sensorId = `door-${s.n % 2}`;
      const at = new Date(s.w.world.clock.now() + s.n).toISOString();
      const e = s.w.hub.send(
        homeId,
        jsonBody(reading({ homeId, sensorId, occurredAt: at })),
        { run },
        s.w.world.clock.now(),
      );
      s.sent.push(`${e.partitionId}/${e.sequenceNumber}`);
      s.newest.set(`${homeId}/${sensorId}`, `${e.partitionId}/${e.sequenceNumber}`);
      s.keyOf.set(`${e.partitionId}/${e.sequenceNumber}`, `${homeId}/${sensorId}`);
    }
  };
  const saved = () =>
    makeSavedEvents(
      BlobServiceClient.fromConnectionString(inject('storageConnectionString')).getContainerClient(
        s.w.world.env.DEAD_LETTER_CONTAINER ?? '',
      ),
    );
  const status = async () =>
    (await (await fetch(`${s.w.world.http.baseUrl}/api/breaker/status?code=${FUNCTION_KEY}`)).json()) as {
      state: string | null;
      phase: string | null;
      orchestrationStatus: string | null;
      triggerDisabled: boolean | null;
    };
  const watchdogMinute = async () => {
    s.w.world.clock.advance(MINUTE);
    await s.w.world.runWatchdog();
    await s.w.world.durable.catchUp();
  };
  /** One simulated second, and the watchdog on each new minute, as the host's timer runs it. */
  const second = async () => {
    const minute = Math.floor(s.w.world.clock.now() / MINUTE);
    await s.w.second();
    if (Math.floor(s.w.world.clock.now() / MINUTE) !== minute) {
      await s.w.world.runWatchdog();
      await s.w.world.durable.catchUp();
    }
  };
  /** Simulated seconds until `done` holds; bounded. */
  const seconds = async (max: number, done: () => boolean) => {
    for (let i = 0; i < max && !done(); i++) await second();
  };
  /** Each email as one line of text (the plain part wraps its paragraphs). */
  const emails = () =>
    s.w.world.smtp.received.map((m) => `${m.subject} ${m.text ?? ''}`.replace(/\s+/g, ' '));

  const setUp = async () => {
    s.redis = store === 'redis' ? await startRedis() : undefined;
    s.w = await HeldBacklogWorld.create(inject('storageConnectionString'), 4, {
      ...(s.redis ? { BREAKER_STORE: 'redis', REDIS_CONNECTION: s.redis.url } : {}),
      EVENTHUB_RETENTION_HOURS: '1',
      RETENTION_SAVE_MARGIN_MINUTES: '15',
      RETENTION_GUARD_ENABLED: 'true',
    });
    send(20, 'early');
    await s.w.second();
    await s.w.second();
    s.w.world.downstreamDown = true;
    send(60, 'held');
    s.link = await s.w.untilTrippedAndDisabled();
    s.heldAtTrip = s.w.truth().reduce((sum, t) => sum + t.held, 0);
    // Nobody approves: the guard saves what waits 15 min before the first loss (about 45 min in).
    s.w.world.clock.advance(39 * MINUTE);
    for (let minute = 40; minute <= 60 && (await saved().count()).total === 0; minute++)
      await watchdogMinute();
    for (const id of s.w.hub.partitionIds)
      for (const seq of await saved().sequenceNumbers(id)) s.savedIds.add(`${id}/${seq}`);
    // The operator approves while the downstream is still down: the drain fails through its retries.
    const approval = await s.w.world.approve(s.link, 'Early Approver');
    expect(approval.postStatus).toBe(200);
    await seconds(600, () => emails().some((m) => /could not be written to the downstream/.test(m)));
  };

  /** The end state every variant must reach once the downstream is back. */
  const resumedWithNothingLost = async () => {
    expect(s.w.host.isListening).toBe(true);
    expect(s.w.world.isDisabled()).toBe(false);
    expect((await saved().count()).total).toBe(0);
    // Lost = sent but neither written to the sink nor dead-lettered (a batch writes only the newest
    // of a key, so superseded events count as processed once their batch is checkpointed past them).
    const written = new Set(s.w.world.writes.map((x) => `${x.partitionId}/${x.sequenceNumber}`));
    for (const [key, last] of s.newest)
      expect({ key, written: written.has(last) }).toEqual({ key, written: true });
    // A drained batch, like any batch, writes the newest event of each key: the newest saved one of
    // each key must have reached the sink.
    const newestSaved = new Map<string, string>();
    for (const id of [...s.savedIds].sort((a, b) => seq(a) - seq(b)))
      newestSaved.set(s.keyOf.get(id) ?? id, id);
    for (const [key, id] of newestSaved)
      expect({ key, id, written: written.has(id) }).toEqual({ key, id, written: true });
    const firstWrites = new Map<string, number[]>();
    const seen = new Set<string>();
    for (const write of s.w.world.writes) {
      const id = `${write.partitionId}/${write.sequenceNumber}`;
      if (seen.has(id)) continue;
      seen.add(id);
      firstWrites.set(write.key, [...(firstWrites.get(write.key) ?? []), write.sequenceNumber]);
    }
    for (const [key, seqs] of firstWrites)
      expect({ key, seqs }).toEqual({ key, seqs: [...seqs].sort((a, b) => a - b) });
  };
  /** Redis stops and starts again with nothing in it (a cache without persistence, a failover). */
  const restartRedisEmpty = async () => {
    const redis = s.redis;
    if (redis === undefined) throw new Error('this scenario runs on the Table store');
    await redis.stop();
    s.redis = await startRedis(redis.port);
    await s.w.world.storeAnswers();
  };
  const close = async () => {
    await s.w.close();
    await s.redis?.stop();
  };
  return {
    s,
    send,
    saved,
    status,
    second,
    seconds,
    emails,
    setUp,
    resumedWithNothingLost,
    restartRedisEmpty,
    close,
  };
}
