import { afterAll, beforeAll, expect } from 'vitest';

import { invokeHttp } from '../../sim/host/httpInvoke';
import { OperatorFunction } from '../../src/operator/registerOperator';
import { type OperatorFixture, operatorFixture } from './operatorFixture';

/** The operator fixture of the test file that called `setUpOperatorFixture`, open while its tests run. */
export let f: OperatorFixture;

/** Opens the fixture before the calling file's tests and closes it after them. */
export function setUpOperatorFixture(): void {
  beforeAll(async () => {
    f = await operatorFixture();
  });
  afterAll(() => f.close());
}

const BASE = 'https://breakwater.example/api/breaker';
export const call = (fn: string, method: string, path: string, body?: unknown) =>
  invokeHttp(
    fn,
    {
      method,
      url: `${BASE}/${path}`,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    },
    { durableClient: f.durable.clientData },
  );
export const status = async () => {
  const res = await call(OperatorFunction.status, 'GET', 'status');
  expect(res.status).toBe(200);
  return JSON.parse(res.body) as Record<string, unknown> & { lastTrip: Record<string, unknown> | null };
};
export const dashboard = () => call(OperatorFunction.dashboard, 'GET', 'dashboard');
