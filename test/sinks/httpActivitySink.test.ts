import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type HttpDownstream, startHttpDownstream } from '../../sim/world/httpDownstream';
import { classifyError } from '../../src/sinks/classifyError';
import { HttpStatusError, TransientSinkError } from '../../src/sinks/errors';
import { attemptWithRetry, makeEventRetryPolicy } from '../../src/sinks/eventRetry';
import { makeHttpActivitySink } from '../../src/sinks/httpActivitySink';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

let api: HttpDownstream;
beforeAll(async () => {
  api = await startHttpDownstream();
});
afterAll(() => api.close());
beforeEach(() => {
  api.mode = { kind: 'up' };
});

const NOW = Date.UTC(2026, 0, 1, 12);
const sink = (timeoutMs = 5_000) =>
  makeHttpActivitySink({
    url: api.url,
    healthUrl: api.healthUrl,
    timeoutMs,
    keyPrefix: 'sensor-readings',
    now: () => NOW,
  });
const signal = () => AbortSignal.timeout(10_000);
let home = 0;
const write = (s = sink(), sequenceNumber = 1, partitionId = '2') => {
  const r = reading({ homeId: `http-${++home}` });
  return s.write(r, receivedEvent(jsonBody(r), sequenceNumber, partitionId), signal());
};
const failureOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
};

describe('the HTTP sink', () => {
  it('POSTs each reading with an idempotency key from partition and sequence number', async () => {
    const r = reading({ homeId: 'http-key', state: 'closed', batteryPercent: 80 });
    const event = receivedEvent(jsonBody(r), 41, '7');
    expect(await sink().write(r, event, signal())).toBe('applied');
    expect(api.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/readings',
      idempotencyKey: 'sensor-readings:7:41',
    });
    expect(api.held('http-key', 'door-1')?.body).toMatchObject({
      state: 'closed',
      batteryPercent: 80,
      eventPartition: '7',
      eventSequenceNumber: 41,
      version: '2026-01-01T00:00:00.000Z|0007|0000000000000041',
    });
    // A re-run sends the same key; the API replays its answer and nothing changes.
    expect(await sink().write(r, event, signal())).toBe('stale');
    expect(api.requests.at(-1)?.idempotencyKey).toBe('sensor-readings:7:41');
  });

  it('derives the key from the body when the host sent no metadata', async () => {
    const r = reading({ homeId: 'http-nometa' });
    const event = { ...receivedEvent(jsonBody(r), 1), partitionId: undefined, sequenceNumber: undefined };
    await sink().write(r, event, signal());
    expect(api.requests.at(-1)?.idempotencyKey).toMatch(/^sensor-readings:sha256:[0-9a-f]{64}$/);
  });

  it.each([
    [503, 'transient'],
    [500, 'transient'],
    [408, 'transient'],
    [400, 'permanent'],
    [404, 'permanent'],
    [409, 'permanent'],
    [422, 'permanent'],
  ] as const)('HTTP %i carries its statusCode, so the classifier calls it %s', async (status, kind) => {
    api.mode = { kind: 'status', status };
    const error = await failureOf(write());
    expect(error instanceof HttpStatusError && error.statusCode).toBe(status);
    expect(classifyError(error)).toBe(kind);
  });

  it('401 and 403 carry their statusCode too (the classifier decides what they mean)', async () => {
    for (const status of [401, 403]) {
      api.mode = { kind: 'status', status };
      const error = await failureOf(write());
      expect(error instanceof HttpStatusError && error.statusCode).toBe(status);
    }
  });

  it('429 carries Retry-After as retryAfterMs, in seconds or as an HTTP-date', async () => {
    api.mode = { kind: 'status', status: 429, retryAfter: '7' };
    const seconds = await failureOf(write());
    expect(seconds instanceof HttpStatusError && seconds.retryAfterMs).toBe(7000);
    expect(classifyError(seconds)).toBe('transient');
    api.mode = { kind: 'status', status: 429, retryAfter: new Date(NOW + 90_000).toUTCString() };
    const date = await failureOf(write());
    expect(date instanceof HttpStatusError && date.retryAfterMs).toBe(90_000);
  });

  it('honours Retry-After through the per-event retry policy, then succeeds', async () => {
    api.forNext(1, { kind: 'status', status: 429, retryAfter: '1' });
    const policy = makeEventRetryPolicy({ maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5 });
    const r = reading({ homeId: 'http-throttled' });
    const result = await attemptWithRetry(policy, 30_000, (s) =>
      sink().write(r, receivedEvent(jsonBody(r), 3), s),
    );
    expect(result).toEqual({ ok: true, value: 'applied', attempts: 2 });
    const [first, second] = api.requests.filter((q) => q.idempotencyKey === 'sensor-readings:0:3');
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
  });

  it('a reset connection is outage-like and says the downstream is unreachable', async () => {
    api.mode = { kind: 'down' };
    const error = await failureOf(write());
    expect(error).toBeInstanceOf(TransientSinkError);
    expect(error.message).toMatch(/downstream unreachable \(/);
    expect(classifyError(error)).toBe('transient');
  });

  it('a downstream that never answers is cut off by the timeout, outage-like', async () => {
    api.mode = { kind: 'hang' };
    const started = Date.now();
    const error = await failureOf(write(sink(150)));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.message).toContain('no answer within 150 ms');
    expect(classifyError(error)).toBe('transient');
    await expect(sink(150).probe(signal())).rejects.toThrow(/no answer within 150 ms/);
  });

  it('bounds and sanitises what the downstream said before it reaches a message', async () => {
    api.mode = { kind: 'status', status: 400, body: `bad\u0000\u001b[31m input ${'x'.repeat(100_000)}` };
    const error = await failureOf(write());
    expect(error.message).toMatch(
      /^POST reading sensor-readings:2:1: downstream answered HTTP 400: bad \[31m input x+…$/,
    );
    expect(error.message.length).toBeLessThan(300);
  });

  it('probes the health endpoint: 2xx is healthy, anything else is thrown with its status', async () => {
    await expect(sink().probe(signal())).resolves.toBeUndefined();
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', path: '/health' });
    api.mode = { kind: 'status', status: 503 };
    const error = await failureOf(sink().probe(signal()));
    expect(error instanceof HttpStatusError && error.statusCode).toBe(503);
  });
});
