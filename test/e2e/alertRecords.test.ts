/**
 * Every log alert rule of infra/core/alerts.bicep against the records the app really emits: one world
 * (the hub behind the Event Hubs peer, Redis as the breaker store, the retention guard on) goes through
 * what each rule is there for, with the exporters production registers (composition/telemetrySetup.ts)
 * writing to memory. Each rule's events must be among the records, with every dimension its query reads.
 * A rule that selects an event the code only writes as a text line never fires in Azure: this fails.
 */
import { resolve } from 'node:path';
import { InMemoryLogRecordExporter } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { invokeRpc } from '../../sim/host/fakeFunctionsCore';
import { type RedisService, startRedis } from '../../sim/services/redis';
import { DISABLED_SETTING, FUNCTION_KEY, FUNCTION_NAME } from '../../sim/world/breakwaterWorld';
import { maintenanceRequest } from '../../sim/world/operatorActions';
import { type StartedTelemetry, startTelemetry } from '../../src/composition/telemetrySetup';
import { readHostLogLevels } from '../../src/config/hostLogLevels';
import { eventAttribute } from '../../src/kernel/appEvent';
import { alertRuleQueries } from '../deploy/alertRuleQueries';
import { jsonBody, reading, rpcEventBatch } from '../support/sensorEvents';
import { HeldBacklogWorld } from './worlds/heldBacklogWorld';

const MINUTE = 60_000;
const exported = new InMemoryLogRecordExporter();
let started: StartedTelemetry;
let redis: RedisService;
let w: HeldBacklogWorld;

/** One watchdog tick a minute after the last, as the host runs it (it may fail after its heartbeat). */
async function watchdogMinute(): Promise<void> {
  w.world.clock.advance(MINUTE);
  await invokeRpc('BreakerWatchdog', {
    trigger: { json: JSON.stringify({ isPastDue: false }) },
    inputData: w.world.durableClientInput('BreakerWatchdog'),
  }).catch(() => undefined);
  await w.world.durable.catchUp();
}

function setDisabled(disabled: boolean): void {
  w.world.arm.setSettings({ ...w.world.arm.settings(), [DISABLED_SETTING]: String(disabled) });
}

beforeAll(async () => {
  started = startTelemetry('alert-drill', {
    spans: new InMemorySpanExporter(),
    logs: exported,
    simple: true,
    // The app's own host.json levels: a rule whose event they filter out never fires either.
    levels: readHostLogLevels(resolve(__dirname, '../..')),
  });
  redis = await startRedis();
  w = await HeldBacklogWorld.create(inject('storageConnectionString'), 2, {
    BREAKER_STORE: 'redis',
    REDIS_CONNECTION: redis.url,
    EVENTHUB_RETENTION_HOURS: '1',
    RETENTION_SAVE_MARGIN_MINUTES: '15',
    RETENTION_GUARD_ENABLED: 'true',
  });
  await w.world.drainDeadLetters(); // creates the queue, as the Bicep does in Azure

  // CLOSED, and somebody disables the trigger: events wait behind checkpoints that do not move.
  w.send(10, 2, 'flowing');
  for (let s = 0; s < 3; s++) await w.second();
  setDisabled(true);
  w.send(10, 2, 'waiting');
  for (let s = 0; s < 3; s++) await w.second();
  await watchdogMinute();
  await watchdogMinute();
  setDisabled(false);
  for (let s = 0; s < 5; s++) await w.second();

  // Maintenance: the heartbeat says for how long.
  expect(
    (await maintenanceRequest(w.world.http.baseUrl, FUNCTION_KEY, { action: 'enter', reason: 'drill' }))
      .status,
  ).toBe(200);
  await watchdogMinute();
  expect((await maintenanceRequest(w.world.http.baseUrl, FUNCTION_KEY, { action: 'leave' })).status).toBe(
    200,
  );
  await watchdogMinute();

  // The downstream goes down: batches are held, the breaker trips, nobody approves; the guard saves.
  w.world.downstreamDown = true;
  w.send(60, 3, 'held');
  await w.untilTrippedAndDisabled();
  await watchdogMinute();
  w.world.clock.advance(42 * MINUTE);
  for (let minute = 0; minute < 6; minute++) await watchdogMinute();

  // The breaker store goes down: a batch cannot ask it, the heartbeat cannot read it.
  await redis.stop();
  const batch = rpcEventBatch([jsonBody(reading({ homeId: 'home-store-down' }))], { partitionId: '1' });
  await invokeRpc(FUNCTION_NAME, { ...batch, inputData: w.world.durableClientInput(FUNCTION_NAME) }).catch(
    () => undefined,
  );
  await watchdogMinute();
  redis = await startRedis(redis.port);
  await w.world.storeAnswers();

  // The hub cannot be read: the guard cannot check what waits.
  await w.peer.close();
  await watchdogMinute();
  await started.flush();
}, 180_000);

afterAll(async () => {
  await w.world.close();
  await redis.stop();
  await started.shutdown();
});

/** The attributes of every exported record of one event (customDimensions in Application Insights). */
const recordsOf = (event: string) =>
  exported
    .getFinishedLogRecords()
    .filter((r) => r.attributes[eventAttribute] === event)
    .map((r) => r.attributes);

describe('each alert rule selects records the app emits', () => {
  it.each(alertRuleQueries().map((r) => [r.name, r] as const))(
    '%s: its events are records, with every dimension its query reads',
    (_name, rule) => {
      for (const event of rule.events) expect(recordsOf(event), event).not.toEqual([]);
      const all = rule.events.flatMap(recordsOf);
      for (const field of rule.fields)
        expect(
          all.some((a) => a[field] !== undefined),
          `${field} on ${rule.events.join(' or ')}`,
        ).toBe(true);
    },
  );
});
