import { TableClient } from '@azure/data-tables';
import { Redis } from 'ioredis';
import { describe, expect, inject, it } from 'vitest';

import { breakerKeys } from '../../src/breaker/redisBreakerStore';
import { createRuntime } from '../../src/composition/runtime';
import { testAppEnv } from '../support/appEnv';
import { failures, T0 } from './breakerStoreFixture';

const FN = 'ProcessSensorEvents';

describe('BREAKER_STORE selects the adapter in the composition root', () => {
  it('redis: the store writes the guarded function’s hash-tagged keys', async () => {
    const url = inject('redisUrl');
    const runtime = createRuntime(testAppEnv('wr', { BREAKER_STORE: 'redis', REDIS_CONNECTION: url }));
    const admin = new Redis(url);
    await admin.del(...Object.values(breakerKeys(FN)));
    expect(await runtime.breakerStore.record(failures(2), T0)).toMatchObject({ failuresInWindow: 2 });
    expect(await admin.exists(breakerKeys(FN).window)).toBe(1);
    expect(await runtime.breaker.check()).toEqual({ open: false, tripId: undefined });
    expect(runtime.breaker.health()).toMatchObject({ ok: true });
    await admin.del(...Object.values(breakerKeys(FN)));
    await admin.quit();
    await runtime.breakerStore.close();
  });

  it('table (the default): the store writes rows in BREAKER_TABLE_NAME, partition = function name', async () => {
    const env = testAppEnv('wt');
    const runtime = createRuntime(env);
    expect(runtime.config.breaker.store).toBe('table');
    expect(await runtime.breakerStore.record(failures(3), T0)).toMatchObject({ failuresInWindow: 3 });
    const table = TableClient.fromConnectionString(env.AzureWebJobsStorage!, env.BREAKER_TABLE_NAME!, {
      allowInsecureConnection: true,
    });
    const rows = [];
    for await (const e of table.listEntities({ queryOptions: { filter: `PartitionKey eq '${FN}'` } }))
      rows.push(e);
    expect(rows.map((r) => r.count)).toEqual([3]);
    await runtime.breakerStore.close();
  });
});
