/**
 * One worker process of `npm run bench -- --memory` (bench/memory.ts starts two): `app` loads the
 * compiled app from dist/ under the host model and feeds it a steady rate of readings for the Table
 * sink on Azurite; `bare` loads the same SDKs and the same host model, no app, and only waits. Both
 * print one JSON line per memory sample (after a full GC) on stdout.
 */
import '../sim/host/fakeFunctionsCore';

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

import type { EventHubModel, HubEvent } from '../sim/host/eventHubModel';
import { localAppEnv } from '../sim/host/localAppEnv';
import { SimClock } from '../sim/host/simClock';
import { TriggerHostModel } from '../sim/host/triggerHostModel';

/** The SDKs the app's modules load (package.json dependencies), loaded by the bare process too. */
export const SDKS = [
  '@azure/arm-appservice',
  '@azure/communication-email',
  '@azure/data-tables',
  '@azure/event-hubs',
  '@azure/functions',
  '@azure/identity',
  '@azure/storage-blob',
  '@azure/storage-queue',
  'cockatiel',
  'durable-functions',
  'escape-html',
  'ioredis',
  'nodemailer',
  'zod',
];

const [mode = 'bare', seconds = '60', rate = '100', samplesEvery = '5'] = process.argv.slice(2);
const durationMs = Number(seconds) * 1000;
const PARTITIONS = 4;
const TICK_MS = 200;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function sample(at: number, extra: Record<string, number> = {}) {
  gc();
  const m = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({ at, rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, ...extra })}\n`,
  );
}

/**
 * The host model's hub, except that it lets go of events behind the checkpoint (the real hub keeps
 * them, but not in the worker's memory): what grows in this process is then the app's, not the
 * harness's. Same public surface as EventHubModel, which the host model reads through.
 */
function releasingHub(partitionCount: number) {
  const logs = Array.from({ length: partitionCount }, () => ({ base: 0, events: [] as HubEvent[] }));
  const log = (id: string) => logs[Number(id)]!;
  const hub = {
    partitionCount,
    get partitionIds() {
      return logs.map((_, i) => String(i));
    },
    sendTo(partitionId: string, body: Buffer, properties: Record<string, unknown>, now: number) {
      const l = log(partitionId);
      const sequenceNumber = l.base + l.events.length;
      const event = {
        ...{ partitionId, sequenceNumber, offset: String(sequenceNumber * 1024) },
        ...{ enqueuedTimeUtc: new Date(now).toISOString(), body, properties },
      };
      l.events.push(event);
      return event;
    },
    read: (partitionId: string, from: number, max: number) => {
      const l = log(partitionId);
      return l.events.slice(from - l.base, from - l.base + max);
    },
    size: (partitionId: string) => log(partitionId).base + log(partitionId).events.length,
    /** Drops the partition's events before `upTo` (its checkpoint). */
    release(partitionId: string, upTo: number) {
      const l = log(partitionId);
      l.events.splice(0, Math.max(0, upTo - l.base));
      l.base = Math.max(l.base, upTo);
    },
  };
  return hub;
}

/** The function modules a worker loads (package.json `main`: dist/src/functions/*.js). */
async function loadApp() {
  const functions = path.resolve(__dirname, '../dist/src/functions');
  for (const file of readdirSync(functions).filter((f) => f.endsWith('.js')))
    await import(pathToFileURL(path.join(functions, file)).href);
}

async function main() {
  const storage = process.env.BENCH_STORAGE ?? '';
  if (mode === 'app') {
    Object.assign(
      process.env,
      localAppEnv(storage, 'mem', {
        BREAKER_STORE: 'table',
        TRIGGER_CONTROL: 'local',
        EMAIL_PROVIDER: 'log',
        EVENT_RETRY_INITIAL_DELAY_MS: undefined,
        EVENT_RETRY_MAX_DELAY_MS: undefined,
      }),
    );
    await loadApp();
  } else {
    for (const sdk of SDKS) await import(sdk);
  }
  const clock = new SimClock(Date.now());
  const hub = releasingHub(PARTITIONS);
  // The bare process builds no host model: there is no function registered for it to run.
  const host =
    mode === 'app'
      ? new TriggerHostModel({
          functionName: 'ProcessSensorEvents',
          hub: hub as unknown as EventHubModel,
          clock,
          isDisabled: () => Promise.resolve(false),
        })
      : undefined;
  const started = Date.now();
  let sent = 0;
  let failed = 0;
  let nextSample = 0;
  while (Date.now() - started <= durationMs) {
    const at = Date.now() - started;
    if (at >= nextSample) {
      sample(at, host ? { sent, backlog: sent - processed(host, hub) } : {});
      nextSample += Number(samplesEvery) * 1000;
    }
    if (host) {
      // As many as the rate asks by now: a slow tick makes the next batches larger, not the rate lower.
      const due = Math.floor((Number(rate) * (Date.now() - started)) / 1000);
      for (let i = 0; sent < due; i++, sent++) {
        const reading = {
          homeId: `home-${sent % 500}`,
          sensorId: `door-${sent % 3}`,
          kind: 'contact',
          state: sent % 2 === 0 ? 'open' : 'closed',
          occurredAt: new Date(clock.now() + i).toISOString(),
        };
        hub.sendTo(String(sent % PARTITIONS), Buffer.from(JSON.stringify(reading)), {}, clock.now());
      }
      await host.tick();
      for (const id of hub.partitionIds) hub.release(id, host.checkpoint(id));
      // The model's record of every invocation is the harness's memory too: counted, then let go.
      failed += host.invocations.filter((i) => i.outcome !== 'returned').length;
      host.invocations.splice(0);
    }
    const wait = started + at + TICK_MS - Date.now();
    await sleep(Math.max(0, wait));
    clock.advance(TICK_MS);
  }
  sample(Date.now() - started, host ? { sent, backlog: sent - processed(host, hub), failed } : {});
  process.exit(0);
}

/** Events checkpointed past over every partition. */
function processed(host: TriggerHostModel, hub: { readonly partitionIds: string[] }) {
  return hub.partitionIds.reduce((sum, id) => sum + host.checkpoint(id), 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
