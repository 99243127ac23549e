import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { invokeHttp } from '../../sim/host/httpInvoke';
import { OperatorFunction } from '../../src/operator/registerOperator';
import { type OperatorFixture, operatorFixture } from './operatorFixture';

let f: OperatorFixture;
beforeAll(async () => {
  f = await operatorFixture();
});
afterAll(() => f.close());

const history = (query: string) =>
  invokeHttp(
    OperatorFunction.history,
    { method: 'GET', url: `https://breakwater.example/api/breaker/history?${query}` },
    { durableClient: f.durable.clientData },
  );

describe('query strings', () => {
  it('accept the function key as ?code= (as the docs pass it) and ignore parameters that are not ours', async () => {
    await f.store.openManually('drill', f.clock.now());
    for (const query of ['code=the-function-key', 'code=k&limit=1', 'utm_source=mail&limit=1']) {
      const res = await history(query);
      expect(res.status, query).toBe(200);
      expect((JSON.parse(res.body) as { trips: unknown[] }).trips).toHaveLength(1);
    }
  });

  it('stay strict about the parameters that are ours', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'code=k&limit=-1']) {
      expect((await history(query)).status, query).toBe(400);
    }
  });
});
