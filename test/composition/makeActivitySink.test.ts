import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type HttpDownstream, startHttpDownstream } from '../../sim/world/httpDownstream';
import { createRuntime } from '../../src/composition/runtime';
import { testAppEnv } from '../support/appEnv';
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
      ['POST', '/readings', 'localhost/sensor-readings:5:12'],
      ['GET', '/health', undefined],
    ]);
    await runtime.breakerStore.close();
  });

  it('two deployments whose hubs share a name write the same position to one API: both are applied', async () => {
    const deployment = (namespace: string) =>
      createRuntime(
        testAppEnv('wire2', {
          SINK: 'http',
          SINK_HTTP_URL: api.url,
          EventHubConnection: undefined,
          EventHubConnection__fullyQualifiedNamespace: namespace,
        }),
      );
    const staging = deployment('evhns-staging.servicebus.windows.net');
    const production = deployment('evhns-prod.servicebus.windows.net');
    const a = reading({ homeId: 'staging-home' });
    const b = reading({ homeId: 'prod-home' });
    // The same partition and sequence number in two hubs named alike: two different events.
    expect(await staging.sink.write(a, receivedEvent(jsonBody(a), 99, '3'), AbortSignal.timeout(5_000))).toBe(
      'applied',
    );
    expect(
      await production.sink.write(b, receivedEvent(jsonBody(b), 99, '3'), AbortSignal.timeout(5_000)),
    ).toBe('applied');
    expect(api.requests.slice(-2).map((q) => q.idempotencyKey)).toEqual([
      'evhns-staging.servicebus.windows.net/sensor-readings:3:99',
      'evhns-prod.servicebus.windows.net/sensor-readings:3:99',
    ]);
    await staging.breakerStore.close();
    await production.breakerStore.close();
  });
});
