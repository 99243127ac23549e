import { RestError, TableClient } from '@azure/data-tables';
import { beforeAll, describe, expect, it } from 'vitest';

import { classifyFailure } from '../../src/sinks/classifyError';
import { SinkConflictError } from '../../src/sinks/errors';
import { attemptWithRetry, makeEventRetryPolicy } from '../../src/sinks/eventRetry';
import { makeHomeActivityTableSink, type SensorActivityRow } from '../../src/sinks/homeActivityTableSink';
import { testAppEnv } from '../support/appEnv';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

let env: Record<string, string>;
const newClient = () =>
  TableClient.fromConnectionString(env.AzureWebJobsStorage!, env.SINK_TABLE_NAME!, {
    allowInsecureConnection: true,
  });
const signal = new AbortController().signal;
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

beforeAll(async () => {
  env = testAppEnv('race');
  await newClient().createTable();
});

type Side = 'older' | 'newer';

/**
 * Forces one interleaving of two writers' table requests: a request of a side goes only when the
 * script names that side next (each request, read or write, is one step); once the script is spent,
 * requests go as they come. No timers: a step ends when its response is back.
 */
function makeScheduler(script: readonly Side[]) {
  let step = 0;
  const waiting: { side: Side; go: () => void }[] = [];
  const wake = () => {
    for (const w of [...waiting]) {
      if (step >= script.length || script[step] === w.side) {
        waiting.splice(waiting.indexOf(w), 1);
        w.go();
        if (step < script.length) return;
      }
    }
  };
  return (side: Side, client: TableClient) => {
    client.pipeline.addPolicy({
      name: 'interleave',
      sendRequest: async (request, next) => {
        // Creating the table (once per sink) is not a step of the write.
        if (/\/Tables$/.test(new URL(request.url).pathname)) return next(request);
        await new Promise<void>((go) => {
          waiting.push({ side, go });
          wake();
        });
        try {
          return await next(request);
        } finally {
          step++;
          wake();
        }
      },
    });
    return client;
  };
}

/** Every order of two writers' read-then-write steps (read, write each): the six interleavings. */
const interleavings: readonly (readonly Side[])[] = [
  ['older', 'older', 'newer', 'newer'],
  ['older', 'newer', 'older', 'newer'],
  ['older', 'newer', 'newer', 'older'],
  ['newer', 'older', 'older', 'newer'],
  ['newer', 'older', 'newer', 'older'],
  ['newer', 'newer', 'older', 'older'],
];

/** A small seeded generator (mulberry32), so a failing round is the same round on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('two partitions writing one sensor of one home at once', () => {
  it('leave the row at the newest reading in every interleaving (200 seeded rounds)', async () => {
    const random = seeded(40);
    const endedOlder: string[] = [];
    for (let round = 0; round < 200; round++) {
      const home = `race-${round}`;
      const exists = random() < 0.5;
      const script = interleavings[Math.floor(random() * interleavings.length)]!;
      if (exists) {
        const first = reading({ homeId: home, state: 'ok', occurredAt: at(0) });
        await makeHomeActivityTableSink(newClient()).write(
          first,
          receivedEvent(jsonBody(first), 0, '3'),
          signal,
        );
      }
      const scheduled = makeScheduler(script);
      const older = reading({ homeId: home, state: 'open', occurredAt: at(5) });
      const newer = reading({ homeId: home, state: 'closed', occurredAt: at(10) });
      // Partition 1 holds the older reading at a higher sequence number: only the time may decide.
      await Promise.all([
        makeHomeActivityTableSink(scheduled('older', newClient())).write(
          older,
          receivedEvent(jsonBody(older), 900, '1'),
          signal,
        ),
        makeHomeActivityTableSink(scheduled('newer', newClient())).write(
          newer,
          receivedEvent(jsonBody(newer), 4, '0'),
          signal,
        ),
      ]);
      const row = await newClient().getEntity<SensorActivityRow>(home, 'door-1');
      if (row.state !== 'closed') endedOlder.push(`${round}: ${script.join(',')} exists=${exists}`);
    }
    expect(endedOlder).toEqual([]);
  }, 120_000);

  it('break a tie of reading times by partition, then sequence number', async () => {
    const home = 'race-tie';
    const script = ['newer', 'older', 'newer', 'older'] as const;
    const scheduled = makeScheduler(script);
    const a = reading({ homeId: home, state: 'open', occurredAt: at(7) });
    const b = reading({ homeId: home, state: 'closed', occurredAt: at(7) });
    await Promise.all([
      makeHomeActivityTableSink(scheduled('older', newClient())).write(
        a,
        receivedEvent(jsonBody(a), 50, '1'),
        signal,
      ),
      makeHomeActivityTableSink(scheduled('newer', newClient())).write(
        b,
        receivedEvent(jsonBody(b), 2, '2'),
        signal,
      ),
    ]);
    expect((await newClient().getEntity<SensorActivityRow>(home, 'door-1')).eventPartition).toBe('2');
  });
});

/** The service's error code, as its `x-ms-error-code` header carries it. */
const errorCode = (error: unknown) =>
  error instanceof RestError ? error.response?.headers.get('x-ms-error-code') : undefined;

describe('the conditional writes the sink relies on, through the conformance layer', () => {
  it('refuse a replace with a stale ETag (412 UpdateConditionNotSatisfied) and a create of a row that exists (409 EntityAlreadyExists)', async () => {
    const client = newClient();
    const entity = { partitionKey: 'cond', rowKey: 'r1', version: 'a' };
    await client.createEntity(entity);
    const { etag } = await client.getEntity('cond', 'r1');
    await client.updateEntity({ ...entity, version: 'b' }, 'Replace', { etag });
    const stale = await client
      .updateEntity({ ...entity, version: 'c' }, 'Replace', { etag })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(RestError);
    expect((stale as RestError).statusCode).toBe(412);
    expect(errorCode(stale)).toBe('UpdateConditionNotSatisfied');
    const again = await client.createEntity(entity).catch((e: unknown) => e);
    expect((again as RestError).statusCode).toBe(409);
    expect(errorCode(again)).toBe('EntityAlreadyExists');
    expect((await client.getEntity<{ version: string }>('cond', 'r1')).version).toBe('b');
  });
});

describe('a hot row', () => {
  /** A client on which another writer replaces the row just before each of our conditional writes. */
  function contendedClient(home: string, contentions: number) {
    const client = newClient();
    const competitor = makeHomeActivityTableSink(newClient());
    let left = contentions;
    let second = 1;
    client.pipeline.addPolicy({
      name: 'contend',
      sendRequest: async (request, next) => {
        // A conditional write: a replace (PUT with If-Match) or a create (POST to the table).
        const path = new URL(request.url).pathname;
        const writes = request.method === 'PUT' || (request.method === 'POST' && !path.endsWith('/Tables'));
        if (writes && left > 0) {
          left--;
          const r = reading({ homeId: home, state: 'open', occurredAt: at(second) });
          await competitor.write(r, receivedEvent(jsonBody(r), second++, '5'), signal);
        }
        return next(request);
      },
    });
    return client;
  }

  it('gives up with a typed error after a bounded number of conflicts, never looping', async () => {
    const home = 'hot-1';
    const sink = makeHomeActivityTableSink(contendedClient(home, 1_000));
    const ours = reading({ homeId: home, state: 'closed', occurredAt: at(100) });
    const error = await sink
      .write(ours, receivedEvent(jsonBody(ours), 1, '0'), signal)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SinkConflictError);
    // Retried per event, and about this event: dead-lettered after its attempts, never holding the batch.
    expect(classifyFailure(error)).toMatchObject({ kind: 'transient', scope: 'event' });
  });

  it('is written by the event retry once the contention passes (not lost)', async () => {
    const home = 'hot-2';
    const sink = makeHomeActivityTableSink(contendedClient(home, 7));
    const ours = reading({ homeId: home, state: 'closed', occurredAt: at(100) });
    const policy = makeEventRetryPolicy({ maxAttempts: 5, initialDelayMs: 0, maxDelayMs: 0 });
    const result = await attemptWithRetry(policy, 30_000, () =>
      sink.write(ours, receivedEvent(jsonBody(ours), 1, '0'), signal),
    );
    expect(result).toMatchObject({ ok: true, value: 'applied' });
    expect((await newClient().getEntity<SensorActivityRow>(home, 'door-1')).state).toBe('closed');
  });
});
