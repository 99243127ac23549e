import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRuntime } from '../../src/composition/runtime';
import { testAppEnv } from '../support/appEnv';
import { type HttpDownstream, startHttpDownstream } from '../../sim/world/httpDownstream';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

let api: HttpDownstream;
beforeAll(async () => {
  api = await startHttpDownstream();
});
afterAll(() => api.close());

describe('the composition root', () => {
  it('sends readings to the HTTP API when SINK=http, keyed by hub, partition and sequence', async () => {
    const runtime = createRuntime(testAppEnv('wire', { SINK: 'http', SINK_HTTP_URL: api.url }));
    const r = reading({ homeId: 'wired' });
    expect(await runtime.sink.write(r, receivedEvent(jsonBody(r), 12, '5'), AbortSignal.timeout(5_000))).toBe(
      'applied',
    );
    await runtime.sink.probe(AbortSignal.timeout(5_000));
    expect(api.requests.map((q) => [q.method, q.path, q.idempotencyKey])).toEqual([
      ['POST', '/readings', 'sensor-readings:5:12'],
      ['GET', '/health', undefined],
    ]);
    await runtime.breakerStore.close();
  });
});
