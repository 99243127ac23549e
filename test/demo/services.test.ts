import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { ServiceStartError, startDemoServices } from '../../demo/services';

/** A machine with no Redis at all: nothing on PATH, no REDIS_URL. */
const noRedis = { PATH: mkdtempSync(path.join(tmpdir(), 'bw-no-redis-')) };

describe('the demo on a machine without Redis', () => {
  it('runs on the Table store on the embedded Azurite and says so', async () => {
    const services = await startDemoServices('auto', noRedis);
    try {
      expect(services.redisUrl).toBeUndefined();
      expect(services.storeNote).toMatch(/^Table on the embedded Azurite: no Redis here/);
      expect(services.storageConnectionString).toContain('TableEndpoint=http://127.0.0.1:');
    } finally {
      await services.stop();
    }
  });

  it('refuses --store redis with one line saying how to get Redis', async () => {
    const started = startDemoServices('redis', noRedis);
    await expect(started).rejects.toBeInstanceOf(ServiceStartError);
    await expect(started).rejects.toThrow(/^Redis is needed: set REDIS_URL.*brew install redis\)$/);
  });

  it('takes REDIS_URL without starting redis-server', async () => {
    const services = await startDemoServices('auto', { ...noRedis, REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      expect(services.redisUrl).toBe('redis://127.0.0.1:1');
      expect(services.storeNote).toBe('Redis from REDIS_URL (redis://127.0.0.1:1)');
    } finally {
      await services.stop();
    }
  });
});
