import { TableClient } from '@azure/data-tables';
import { beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../../sim/services/freePort';
import { classifyError } from '../../src/sinks/classifyError';
import { attemptWithRetry, makeEventRetryPolicy } from '../../src/sinks/eventRetry';
import { makeHomeActivityTableSink, type SensorActivityRow } from '../../src/sinks/homeActivityTableSink';
import { testAppEnv } from '../support/appEnv';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

let table: TableClient;
const newClient = () =>
  TableClient.fromConnectionString(env.AzureWebJobsStorage!, env.SINK_TABLE_NAME!, {
    allowInsecureConnection: true,
  });
let env: Record<string, string>;
const signal = new AbortController().signal;

beforeAll(() => {
  env = testAppEnv('sink');
  table = newClient();
});

describe('the home activity table sink', () => {
  it('stores the latest reading per sensor of a home', async () => {
    const sink = makeHomeActivityTableSink(table);
    const r = reading({ homeId: 'h1', sensorId: 'door', state: 'open', batteryPercent: 90 });
    expect(await sink.write(r, receivedEvent(jsonBody(r), 5, '2'), signal)).toBe('applied');
    const row = await table.getEntity<SensorActivityRow>('h1', 'door');
    expect(row).toMatchObject({
      kind: 'contact',
      state: 'open',
      batteryPercent: 90,
      eventPartition: '2',
      eventSequenceNumber: 5,
    });
  });

  it('treats a re-delivered event as already applied (idempotent)', async () => {
    const sink = makeHomeActivityTableSink(table);
    const r = reading({ homeId: 'h2', state: 'open' });
    const e = receivedEvent(jsonBody(r), 7);
    expect(await sink.write(r, e, signal)).toBe('applied');
    const before = await table.getEntity('h2', 'door-1');
    expect(await sink.write(r, e, signal)).toBe('stale');
    expect((await table.getEntity('h2', 'door-1')).etag).toBe(before.etag);
  });

  it('never lets an older reading overwrite a newer one', async () => {
    const sink = makeHomeActivityTableSink(table);
    const newer = reading({ homeId: 'h3', state: 'closed', occurredAt: '2026-01-01T00:00:10Z' });
    const older = reading({ homeId: 'h3', state: 'open', occurredAt: '2026-01-01T00:00:05Z' });
    await sink.write(newer, receivedEvent(jsonBody(newer), 2), signal);
    expect(await sink.write(older, receivedEvent(jsonBody(older), 9), signal)).toBe('stale');
    expect((await table.getEntity<SensorActivityRow>('h3', 'door-1')).state).toBe('closed');
  });

  it('orders readings with the same timestamp by sequence number', async () => {
    const sink = makeHomeActivityTableSink(table);
    const first = reading({ homeId: 'h4', state: 'open' });
    const second = reading({ homeId: 'h4', state: 'closed' });
    await sink.write(second, receivedEvent(jsonBody(second), 11), signal);
    expect(await sink.write(first, receivedEvent(jsonBody(first), 10), signal)).toBe('stale');
    expect((await table.getEntity<SensorActivityRow>('h4', 'door-1')).state).toBe('closed');
  });

  it('keeps the newest reading when eight writers race on one row', async () => {
    const readings = Array.from({ length: 8 }, (_, i) =>
      reading({
        homeId: 'h5',
        state: i % 2 ? 'open' : 'closed',
        occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      }),
    );
    // Under heavy contention a writer may give up with a transient error: in production the per-event
    // retry policy tries it again, so the test does the same.
    const policy = makeEventRetryPolicy({ maxAttempts: 10, initialDelayMs: 1, maxDelayMs: 20 });
    const results = await Promise.all(
      readings.map((r, i) =>
        attemptWithRetry(policy, 30_000, () =>
          makeHomeActivityTableSink(newClient()).write(r, receivedEvent(jsonBody(r), i), signal),
        ),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.map((r) => (r.ok ? r.value : 'failed'))).toContain('applied');
    const row = await table.getEntity<SensorActivityRow>('h5', 'door-1');
    expect(row.occurredAt).toBe(readings[7]!.occurredAt);
    expect(row.eventSequenceNumber).toBe(7);
  });
});

describe('the table sink health probe', () => {
  it('resolves when the table answers, even though the probe row does not exist (404)', async () => {
    const sink = makeHomeActivityTableSink(newClient());
    await expect(sink.probe(AbortSignal.timeout(5_000))).resolves.toBeUndefined();
  });

  it('throws a transient error when the table service does not answer', async () => {
    const port = await freePort();
    const unreachable = new TableClient(`http://127.0.0.1:${port}/devstoreaccount1`, 'HomeActivity', {
      allowInsecureConnection: true,
      retryOptions: { maxRetries: 0 },
    });
    const error = await makeHomeActivityTableSink(unreachable)
      .probe(AbortSignal.timeout(5_000))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(classifyError(error)).toBe('transient');
  });

  it('is bounded by its signal', async () => {
    const sink = makeHomeActivityTableSink(newClient());
    await expect(sink.probe(AbortSignal.abort())).rejects.toThrow(/abort/i);
  });
});

/** A client that records the requests it sends, and can run something just before a transaction. */
function recordingClient(beforeTransaction?: () => Promise<void>) {
  const client = newClient();
  const requests: string[] = [];
  let hook = beforeTransaction;
  client.pipeline.addPolicy({
    name: 'record',
    sendRequest: async (request, next) => {
      const batch = request.url.endsWith('$batch');
      // Creating the table (once per sink) is not part of a write.
      if (!/\/Tables$/.test(new URL(request.url).pathname))
        requests.push(batch ? 'transaction' : request.method);
      if (batch && hook) {
        const run = hook;
        hook = undefined;
        await run();
      }
      return next(request);
    },
  });
  return { client, requests };
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

describe('writes that share a table partition', () => {
  it('go as one read and one transaction when written at once', async () => {
    const { client, requests } = recordingClient();
    const sink = makeHomeActivityTableSink(client);
    await sink.write(reading({ homeId: 'tx1', sensorId: 'door-1' }), receivedEvent(jsonBody({}), 1), signal);
    requests.length = 0;
    const readings = ['door-1', 'door-2', 'motion'].map((sensorId) =>
      reading({ homeId: 'tx1', sensorId, occurredAt: at(5) }),
    );
    const results = await Promise.all(
      readings.map((r, i) => sink.write(r, receivedEvent(jsonBody(r), 10 + i), signal)),
    );
    expect(results).toEqual(['applied', 'applied', 'applied']);
    expect(requests).toEqual(['GET', 'transaction']);
    for (const [i, r] of readings.entries()) {
      const row = await table.getEntity<SensorActivityRow>('tx1', r.sensorId);
      expect(row).toMatchObject({ occurredAt: r.occurredAt, eventSequenceNumber: 10 + i });
    }
  });

  it('leave out of the transaction a row that already holds a newer reading', async () => {
    const sink = makeHomeActivityTableSink(newClient());
    const newer = reading({ homeId: 'tx2', sensorId: 'door-1', state: 'closed', occurredAt: at(9) });
    await sink.write(newer, receivedEvent(jsonBody(newer), 50), signal);
    const older = reading({ homeId: 'tx2', sensorId: 'door-1', occurredAt: at(1) });
    const other = reading({ homeId: 'tx2', sensorId: 'door-2', occurredAt: at(1) });
    const results = await Promise.all([
      sink.write(older, receivedEvent(jsonBody(older), 1), signal),
      sink.write(other, receivedEvent(jsonBody(other), 2), signal),
    ]);
    expect(results).toEqual(['stale', 'applied']);
    expect((await table.getEntity<SensorActivityRow>('tx2', 'door-1')).state).toBe('closed');
  });

  it.each([
    ['newer', 30, 'competitor'],
    ['older', 1, 'ours'],
  ] as const)(
    'fall back to one row at a time when another instance wrote a %s reading in between (412)',
    async (_label, competitorSecond, winner) => {
      const home = `tx3-${winner}`;
      const seed = makeHomeActivityTableSink(newClient());
      const first = reading({ homeId: home, sensorId: 'door-1', occurredAt: at(0) });
      await seed.write(first, receivedEvent(jsonBody(first), 0), signal);
      const competitor = reading({
        homeId: home,
        sensorId: 'door-1',
        state: 'closed',
        occurredAt: at(competitorSecond),
      });
      const { client, requests } = recordingClient(async () => {
        expect(await seed.write(competitor, receivedEvent(jsonBody(competitor), 99), signal)).toBe('applied');
      });
      const sink = makeHomeActivityTableSink(client);
      const ours = ['door-1', 'door-2'].map((sensorId) =>
        reading({ homeId: home, sensorId, state: 'open', occurredAt: at(10) }),
      );
      const results = await Promise.all(
        ours.map((r, i) => sink.write(r, receivedEvent(jsonBody(r), 10 + i), signal)),
      );
      expect(requests.slice(0, 2)).toEqual(['GET', 'transaction']);
      expect(results).toEqual([winner === 'ours' ? 'applied' : 'stale', 'applied']);
      const row = await table.getEntity<SensorActivityRow>(home, 'door-1');
      expect(row.state).toBe(winner === 'ours' ? 'open' : 'closed');
      expect((await table.getEntity<SensorActivityRow>(home, 'door-2')).eventSequenceNumber).toBe(11);
    },
  );
});
