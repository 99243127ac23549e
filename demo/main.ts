import { BreakwaterWorld, FUNCTION_KEY } from '../sim/world/breakwaterWorld';
import { supersededInItsBatch } from '../sim/world/orderingInWorld';
import { keyOf, runScenario } from '../sim/world/scenario';
import { startServedHub } from '../sim/world/servedHub';
import { readableTrips } from '../src/breaker/breakerStore';
import type { DemoOptions } from './args';
import { makeLiveView } from './liveView';
import { makePacer } from './pacer';
import { formatHolds, partitionHolds, partitionsOutOfOrder } from './partitionReport';
import { demoPlan } from './plan';
import {
  buildSummary,
  type DemoSummary,
  describeRetention,
  eventKey,
  exitCodeOf,
  formatSummaryTable,
  formatTimeline,
  formatTrips,
} from './summary';

/** The local services the demo runs against (started by run.ts, or by the test's global setup). */
export interface DemoServices {
  readonly storageConnectionString: string;
  /** The Redis breaker store's URL; without one the demo runs on the Table store (Azurite). */
  readonly redisUrl?: string;
  /** Where the store came from, for the header (e.g. "Redis from redis-server 7.0.15 on PATH"). */
  readonly storeNote?: string;
}

export interface DemoDeps {
  readonly print: (line: string) => void;
  readonly sleep: (ms: number) => Promise<void>;
  readonly wallNow: () => number;
  /** Where the simulated clock starts: run.ts gives the real time, so pages and emails show today. */
  readonly startAt?: number;
  /** Prints the app's log lines collected since the last call (run.ts buffers console output). */
  readonly flushAppLog?: () => void;
}

export interface DemoResult {
  readonly summary: DemoSummary;
  readonly exitCode: number;
}

/**
 * The demo's main loop: wires the app as in Azure (Redis breaker store), runs the outage scenario with
 * a live view, then prints the summary and the breaker's timeline. Exit code 0 only if nothing was lost
 * and the run settled.
 */
export async function runDemo(
  options: DemoOptions,
  services: DemoServices,
  deps: DemoDeps,
): Promise<DemoResult> {
  const { print } = deps;
  const plan = demoPlan(options);
  // The hub behind the Event Hubs peer, as `verify --target local` has it: the approval page and the
  // dashboard read what is held per partition with the app's own Event Hubs client, as in Azure.
  const retentionMs = options.retentionSeconds === undefined ? undefined : options.retentionSeconds * 1000;
  const served = await startServedHub({
    storageConnectionString: services.storageConnectionString,
    partitions: plan.partitions,
    namePrefix: 'demo',
    key: 'demo-local-key',
    ...(retentionMs === undefined ? {} : { retentionMs }),
  });
  const world = await BreakwaterWorld.create({
    storageConnectionString: services.storageConnectionString,
    settings: {
      ...(services.redisUrl === undefined
        ? { BREAKER_STORE: 'table' }
        : { BREAKER_STORE: 'redis', REDIS_CONNECTION: services.redisUrl }),
      ...served.settings,
    },
    sink: options.sink,
    ...(retentionMs === undefined ? {} : { retentionMs }),
    ...(deps.startAt === undefined ? {} : { startAt: deps.startAt }),
  }).catch(async (error: unknown) => {
    await served.close();
    throw error;
  });
  served.followClock(() => world.clock.now());
  const storeName = services.redisUrl === undefined ? 'Table' : 'Redis';
  try {
    const b = world.runtime.config.breaker;
    const startMs = world.clock.now();
    print(
      `Breakwater demo: ${plan.events} home-security sensor events over ${plan.sendSeconds} s on ${plan.partitions} partitions; ` +
        `downstream offline from t+${options.outageStart}s for ${options.outageSeconds} s.`,
    );
    print(
      `Breaker (${storeName} store): trips above ${b.threshold} failures in ${b.windowSeconds} s; probation ${b.probationSeconds} s ` +
        `(limit ${b.probationThreshold}). Approval: ${
          options.autoApproveSeconds === undefined
            ? 'by you, in a browser'
            : `automatic, ${options.autoApproveSeconds} s after the email`
        }. Pace: ${options.speed > 0 ? `${options.speed} simulated s per second` : 'as fast as possible'}.`,
    );
    const api = world.downstream.http;
    print(
      api
        ? `Downstream: an HTTP API at ${api.url} (started by the demo), through the HTTP sink; offline = connections reset.`
        : 'Downstream: the home activity table on Azurite, through the Table sink; offline = HTTP 503.',
    );
    print(
      `Approval page and API served at ${world.http.baseUrl}/api/ ; dashboard: ${world.http.baseUrl}/api/breaker/dashboard?code=${FUNCTION_KEY}`,
    );
    print(`Breaker store: ${services.storeNote ?? storeName}.`);
    print(
      `Hub retention: ${describeRetention(world.retentionMs)}${
        options.scenario === 'unattended'
          ? `; nobody approves for longer than that (scenario unattended): the oldest events pass the retention unless the app saves them`
          : ''
      }.`,
    );
    print('');

    const live = makeLiveView({
      world,
      print,
      pacer: makePacer({ speed: options.speed, sleep: deps.sleep, wallNow: deps.wallNow }),
      autoApproveSeconds: options.autoApproveSeconds,
      statusEvery: 5,
      ...(deps.flushAppLog ? { flushAppLog: deps.flushAppLog } : {}),
    });
    const report = await runScenario(world, plan, {
      hub: served,
      observer: live.observe,
      followLink: (_link, waited) =>
        options.autoApproveSeconds !== undefined && waited >= options.autoApproveSeconds,
    });

    const summary = buildSummary({
      sent: report.sent,
      processed: live.processed,
      superseded: supersededInItsBatch(world.writes, report.host.invocations),
      deadLettered: new Map(
        report.deadLetters.map((d) => [keyOf(d.partitionId, d.sequenceNumber), d.reason]),
      ),
      checkpoint: (id) => report.host.checkpoint(id),
      expired: new Set(report.expired.map(eventKey)),
      saved: report.saved,
      settled: report.settled,
      seconds: report.seconds,
    });
    const byKey = world.runtime.config.processing.ordering.mode === 'key';
    const outOfOrder = partitionsOutOfOrder(
      world.writes.filter((w) => w.run === plan.run),
      byKey,
    );
    print('');
    print('Summary');
    for (const line of formatSummaryTable(summary, world.env.DEAD_LETTER_CONTAINER ?? '?')) print(line);
    print(
      outOfOrder.length === 0
        ? byKey
          ? `in order: every key's events reached the sink in sequence order (ORDERING=key; re-runs only repeated)`
          : `in order: every partition's events reached the sink in sequence order (re-runs only repeated)`
        : `OUT OF ORDER: partitions ${outOfOrder.join(', ')}`,
    );
    for (const line of formatHolds(partitionHolds(report.host.invocations))) print(line);
    print('');
    print("Breaker's timeline");
    for (const line of formatTimeline(
      report.timeline.filter((t) => t.second > 0 || t.what !== 'breaker CLOSED'),
    ))
      print(line);
    for (const line of formatTrips(readableTrips(await world.runtime.breakerStore.history(20)), startMs))
      print(`  ${line}`);
    return { summary, exitCode: outOfOrder.length === 0 ? exitCodeOf(summary) : 1 };
  } finally {
    await world.close();
    await served.close();
  }
}
