import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { supersededInItsBatch } from '../../sim/world/orderingInWorld';
import { runScenario, type ScenarioPlan, type ScenarioReport } from '../../sim/world/scenario';
import { invariantViolations } from './invariants/invariants';
import { checkNoEventLost } from './property/faultProperty';
import { RedisWorld } from './worlds/redisWorld';

// The whole app on the HTTP sink: the real sink against a local HTTP API that resets every connection
// while the downstream is out. The same outage and the same random fault schedules as on the Table sink.
const runs = Number(process.env.PROPERTY_RUNS ?? 4);
const seed = Number(process.env.PROPERTY_SEED ?? 20261129);

let redisWorld: RedisWorld;
beforeAll(async () => {
  redisWorld = await RedisWorld.create(inject('storageConnectionString'), { sink: 'http' });
});
afterAll(() => redisWorld.close());

describe('an HTTP API downstream out long enough to trip the breaker', () => {
  const plan: ScenarioPlan = {
    run: 'http-outage',
    partitions: 4,
    events: 400,
    sendSeconds: 40,
    homes: 37,
    poisonEvery: 0,
    outages: [{ from: 5, to: 50 }],
    approveAfter: 60,
    crashes: [],
    maxSeconds: 900,
  };
  let report: ScenarioReport;

  beforeAll(async () => {
    report = await runScenario(redisWorld.world, plan);
  }, 240_000);

  it('goes through the HTTP API: every event keyed by partition and sequence number', () => {
    const { world } = redisWorld;
    const api = world.downstream.http!;
    const keys = new Set(api.requests.flatMap((q) => q.idempotencyKey ?? []));
    // ORDERING=key sends no reading that a later one of its key superseded in its batch.
    const writes = world.writes.filter((w) => w.run === plan.run);
    const superseded = supersededInItsBatch(writes, report.host.invocations);
    for (const e of report.sent.filter((sent) => !superseded(sent)))
      expect(keys).toContain(`localhost/sensor-readings:${e.partitionId}:${e.sequenceNumber}`);
  });

  it('trips once, holds the stream, settles with zero lost and every key converged', async () => {
    expect(report.settled, report.timeline.map((t) => `${t.second}s ${t.what}`).join('\n')).toBe(true);
    expect(report.orchestrationIds).toHaveLength(1);
    expect(report.timeline.map((t) => t.what)).toContain('trigger DISABLED (listener stopped)');
    expect(report.deadLetters.filter((d) => d.reason === 'failed').length).toBeLessThanOrEqual(20);
    expect(await invariantViolations(redisWorld.world, report, plan.run)).toEqual([]);
  });
});

describe('property, on the HTTP sink: nothing is lost under random fault schedules', () => {
  it(
    'holds G1 (zero lost), G2 (order, convergence), G3 (one orchestration per trip) and ends enabled and CLOSED',
    () => checkNoEventLost(redisWorld, { runs, seed, runPrefix: 'h' }),
    runs * 120_000,
  );
});
