/**
 * What the app writes to Application Insights per invocation, counted on the real functions in a world
 * (the lines the host's log and `func start` show), and the host.json log levels that keep
 * every line the alert rules read while dropping the host's per-invocation traces.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { fakeCore, invokeRpc, type LogLine } from '../../sim/host/fakeFunctionsCore';
import { FUNCTION_NAME } from '../../sim/world/breakwaterWorld';
import { RedisWorld } from '../e2e/worlds/redisWorld';
import { jsonBody, reading, rpcEventBatch } from '../support/sensorEvents';
import { repoRoot } from './armTemplate';

const host = JSON.parse(readFileSync(resolve(repoRoot, 'host.json'), 'utf8')) as {
  logging: { logLevel: Record<string, string> };
};
const levels = host.logging.logLevel;

let redisWorld: RedisWorld;
beforeAll(async () => {
  redisWorld = await RedisWorld.create(inject('storageConnectionString'));
});
afterAll(() => redisWorld.close());

/** Every line one invocation writes: through its context, and through console (the store's gate). */
async function linesOf(name: string, invocation: Parameters<typeof invokeRpc>[1]): Promise<LogLine[]> {
  const logs: LogLine[] = [];
  const spies = (['log', 'info', 'warn', 'error'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logs.push({ level: `console.${level}`, message: args.map(String).join(' ') });
    }),
  );
  try {
    // A held batch fails its invocation on purpose (the host retries it): its lines are what counts.
    await invokeRpc(name, { ...invocation, logs }).catch(() => undefined);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return logs;
}

describe('log lines per invocation (the ingestion docs/benchmarks.md computes from)', () => {
  it('a healthy batch of 100 events writes one summary line, at Information', async () => {
    const world = redisWorld.world;
    const bodies = Array.from({ length: 100 }, (_, i) => jsonBody(reading({ homeId: `home-${i % 37}` })));
    const lines = await linesOf(FUNCTION_NAME, {
      ...rpcEventBatch(bodies, { partitionId: '2', firstSequenceNumber: 1_000 }),
      inputData: world.durableClientInput(FUNCTION_NAME),
    });
    expect(lines).toEqual([
      {
        level: 'information',
        message: 'batch of 100 (partition 2, retry 0): 100 processed, 0 dead-lettered',
      },
    ]);
  });

  it('a healthy watchdog tick writes one line, the heartbeat', async () => {
    const world = redisWorld.world;
    await world.drainDeadLetters();
    const lines = await linesOf('BreakerWatchdog', {
      trigger: { json: JSON.stringify({ isPastDue: false }) },
      inputData: world.durableClientInput('BreakerWatchdog'),
    });
    expect(lines.map((l) => l.message.split(' ')[0])).toEqual(['Breakwater.Heartbeat']);
    expect(lines[0]?.level).toBe('information');
  });

  it('the trigger writes the lines the alert rules read at Warning or above (a held batch here)', async () => {
    const world = redisWorld.world;
    await world.runtime.breakerStore.openManually('log level drill', world.clock.now());
    world.clock.advance(5_000); // past the state cache
    const lines = await linesOf(FUNCTION_NAME, {
      ...rpcEventBatch([jsonBody(reading())], { partitionId: '3' }),
      inputData: world.durableClientInput(FUNCTION_NAME),
    });
    const held = lines.filter((l) => l.message.startsWith('Breakwater.BatchHeld '));
    expect(held.map((l) => l.level)).toEqual(['warning']);
  });
});

describe('host.json log levels', () => {
  it("drop the host's per-invocation traces and requests (categories Function.<name> and Host.Results)", () => {
    expect(levels.Function).toBe('Warning');
    expect(levels['Host.Results']).toBe('Warning');
    expect(levels.default).toBe('Warning');
  });

  it("keep every function's own lines at Information (Function.<name>.User), the heartbeat's included", () => {
    const registered = [...fakeCore.registry.keys()].filter((name) => name !== FUNCTION_NAME).sort();
    expect(registered).toContain('BreakerWatchdog');
    const missing = registered.filter((name) => levels[`Function.${name}.User`] !== 'Information');
    expect(missing).toEqual([]);
  });

  it("keep the trigger's warnings and errors (held batches, trips) but not its per-batch summary", () => {
    expect(levels[`Function.${FUNCTION_NAME}.User`]).toBe('Warning');
  });
});
