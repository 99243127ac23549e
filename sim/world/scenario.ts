import type { BreakerStateName } from '../../src/breaker/breakerStore';
import type { DeadLetterMessage } from '../../src/deadLetters/deadLetterMessage';
import { EventHubModel, type HubEvent } from '../host/eventHubModel';
import { checkedRetentionMs } from '../host/hubRetention';
import type { TriggerHostModel } from '../host/triggerHostModel';
import type { BreakwaterWorld } from './breakwaterWorld';
import { SavedEventsWatch } from './savedEvents';
import { eventBody, type EventPlan, homeIdOf } from './scenarioEvents';
import { applyHostFaults, type HostFaults } from './scenarioFaults';
import type { ServedHub } from './servedHub';
import { worldTriggerHost } from './worldTriggerHost';

/** How often (simulated seconds) a run lists the events the app saved. */
const SAVED_POLL_SECONDS = 5;

/** A fault schedule and workload for one run; times are seconds from the run's start. */
export interface ScenarioPlan extends HostFaults, EventPlan {
  readonly run: string;
  readonly partitions: number;
  readonly events: number;
  /** Events are sent over this many seconds from the start. */
  readonly sendSeconds: number;
  readonly homes: number;
  /** Every n-th event is not JSON (poison); 0 = none. */
  readonly poisonEvery: number;
  readonly outages: readonly { readonly from: number; readonly to: number }[];
  /** Seconds between an approval email arriving and the operator clicking its link. */
  readonly approveAfter: number;
  /**
   * The operator follows no link before this second of the run (away, whatever the emails say), then
   * each one already `approveAfter` old at once; default: no such absence.
   */
  readonly approveNotBefore?: number;
  /**
   * How long the hub keeps an event, in simulated seconds (older events expire, read or not); default
   * the world's (`WorldOptions.retentionMs`, else the deployed hub's in infra/).
   */
  readonly retentionSeconds?: number;
  /** Upper bound of simulated seconds before the run gives up. */
  readonly maxSeconds: number;
  /** The run does not end before this second, so every scheduled fault plays out. */
  readonly minSeconds?: number;
  /** Other things that happen at a given second (a store outage, a restart), run before that second's round. */
  readonly happenings?: readonly {
    readonly at: number;
    readonly what: string;
    readonly run: () => Promise<void>;
  }[];
  /** The partition key and body of event `i`; default: door contact readings, poison per `poisonEvery`. */
  readonly makeEvent?: (i: number, now: number) => { readonly partitionKey: string; readonly body: Buffer };
}

/** The breaker state as the run observed it; UNREACHABLE while the store is down. */
export type ObservedState = BreakerStateName | 'UNREACHABLE';

/** What the run reports after each simulated second (for a live view such as `npm run demo`). */
export interface ScenarioTick {
  readonly second: number;
  /** Simulation time at the start of this second. */
  readonly now: number;
  readonly sent: number;
  /** Events sent, not yet behind their partition's checkpoint and not expired (held or not yet delivered). */
  readonly backlog: number;
  readonly state: ObservedState;
  readonly listening: boolean;
  readonly downstreamDown: boolean;
  /** Timeline entries added during this second. */
  readonly entries: readonly TimelineEntry[];
  /** Emailed approval links the run has not followed (yet). */
  readonly pendingLinks: readonly string[];
}

/** Optional hooks; without them a run behaves exactly as before. */
export interface ScenarioHooks {
  /** Called (and awaited) once per simulated second, before the clock advances: a live view, pacing. */
  readonly observer?: (tick: ScenarioTick) => void | Promise<void>;
  /**
   * Whether to follow an emailed link now, `waitedSeconds` after it arrived. Default: once
   * `plan.approveAfter` seconds have passed. Always false leaves approval to a person, who opens the
   * link served by `world.http` while the run keeps ticking.
   */
  readonly followLink?: (link: string, waitedSeconds: number) => boolean;
  /**
   * The hub to send to and deliver from, with the host's checkpoint writer: a served hub the app's own
   * Event Hubs client can read (the demo's approval page shows what is held). Default: a fresh model.
   */
  readonly hub?: Pick<ServedHub, 'hub' | 'onCheckpoint'> & Partial<Pick<ServedHub, 'loadCheckpoint'>>;
  /**
   * A look at the run so far at second `at` (if the run gets there), after that second's round and
   * before its approvals: the report as it stands, unsettled (a mid-run check of the invariants).
   */
  readonly midRun?: {
    readonly at: number;
    readonly check: (soFar: ScenarioReport) => void | Promise<void>;
  };
}

/** Timeline wording (the tests and the demo match on it). */
export const TIMELINE = {
  downstreamDown: 'downstream DOWN',
  downstreamUp: 'downstream back UP',
  disabled: 'trigger DISABLED (listener stopped)',
  enabled: 'trigger ENABLED (listener resumes)',
  emailWithLink: 'email with approval link received',
  breaker: (state: string) => `breaker ${state}`,
  followed: (status: number) => `approval link followed (HTTP ${status})`,
} as const;

export interface TimelineEntry {
  readonly second: number;
  readonly what: string;
}

export interface ScenarioReport {
  /** Every event sent, expired ones included. */
  readonly sent: readonly HubEvent[];
  /** The events that expired in the hub (past the retention) by the run's end, processed or not. */
  readonly expired: readonly HubEvent[];
  /** The hub's retention during the run (simulated ms). */
  readonly retentionMs: number;
  /** `partition/sequence` of the events the app saved (retention guard) during the run, drained or not. */
  readonly saved: ReadonlySet<string>;
  /** Those of `saved` still in the app's storage when the report was made (not drained to the sink yet). */
  readonly savedLeft: ReadonlySet<string>;
  readonly deadLetters: readonly DeadLetterMessage[];
  readonly host: TriggerHostModel;
  readonly timeline: readonly TimelineEntry[];
  readonly approvals: readonly { readonly second: number; readonly postStatus: number }[];
  readonly orchestrationIds: readonly string[];
  /** Emails received before the run (the run's own come after). */
  readonly mailsBefore: number;
  readonly seconds: number;
  readonly settled: boolean;
}

/**
 * Runs one scenario second by second on the simulation clock: sends events, switches the downstream
 * on and off, lets the host model deliver batches, runs due orchestration work and the watchdog, and
 * approves emailed links like an operator. Stops once everything settled (all events behind the
 * checkpoints, trigger enabled, breaker CLOSED, no orchestration running) or at `maxSeconds`.
 */
export async function runScenario(
  world: BreakwaterWorld,
  plan: ScenarioPlan,
  hooks: ScenarioHooks = {},
): Promise<ScenarioReport> {
  const hub = hooks.hub?.hub ?? new EventHubModel(plan.partitions);
  // The hub expires events by the world's simulated clock, never by real time.
  hub.retain({
    retentionMs:
      plan.retentionSeconds === undefined
        ? world.retentionMs
        : checkedRetentionMs(plan.retentionSeconds * 1000, 'ScenarioPlan.retentionSeconds (× 1000)'),
    now: () => world.clock.now(),
  });
  // Each run is a new hub whose sequence numbers restart at 0, so the API must not remember the keys
  // of the last one (in Azure a re-created hub needs a new key prefix: docs/your-own-downstream.md).
  world.downstream.http?.forgetIdempotencyKeys();
  const host = worldTriggerHost(world, {
    hub,
    ...(hooks.hub ? { onCheckpoint: hooks.hub.onCheckpoint } : {}),
    ...(hooks.hub?.loadCheckpoint ? { loadCheckpoint: hooks.hub.loadCheckpoint } : {}),
    ...(plan.instances ? { instances: plan.instances } : {}),
    ...(plan.extension ? { extension: plan.extension } : {}),
    ...(plan.wire ? { wire: plan.wire } : {}),
    ...(plan.hostSeed === undefined ? {} : { seed: plan.hostSeed }),
  });
  world.attachHost(host);
  const saved = await SavedEventsWatch.start(world.env);
  const timeline: TimelineEntry[] = [];
  const approvals: { second: number; postStatus: number }[] = [];
  const knownLinks = new Set(world.approvalLinks());
  const linkSeen = new Map<string, number>();
  const startsBefore = world.durable.starts.length;
  const mailsBefore = world.smtp.received.length;
  const perSecond = Math.ceil(plan.events / Math.max(1, plan.sendSeconds));
  let sent = 0;
  let lastState = '';
  let wasListening = true;
  let second = 0;
  let settled = false;
  // Dead letters are read off the queue (and removed): a mid-run look keeps what it read for the end.
  const deadLetters: DeadLetterMessage[] = [];
  const readDeadLetters = async () => {
    for (const m of await world.drainDeadLetters())
      if ((m.properties as { run?: string } | undefined)?.run === plan.run) deadLetters.push(m);
    return [...deadLetters];
  };
  const report = async (settledNow: boolean): Promise<ScenarioReport> => {
    await saved.poll();
    return {
      sent: hub.all(),
      expired: hub.expired(),
      retentionMs: hub.retention,
      saved: new Set(saved.keys),
      savedLeft: await saved.left(),
      deadLetters: await readDeadLetters(),
      host,
      timeline: [...timeline],
      approvals: [...approvals],
      orchestrationIds: world.durable.starts.slice(startsBefore).map((s) => s.instanceId),
      mailsBefore,
      seconds: second,
      settled: settledNow,
    };
  };
  const followLink =
    hooks.followLink ?? ((_link: string, waitedSeconds: number) => waitedSeconds >= plan.approveAfter);
  const makeEvent =
    plan.makeEvent ??
    ((i: number, now: number) => ({
      partitionKey: homeIdOf(plan, i),
      body: eventBody(plan, i, now),
    }));

  for (; second <= plan.maxSeconds; second++) {
    const entriesBefore = timeline.length;
    const now = world.clock.now();
    const down = plan.outages.some((o) => second >= o.from && second < o.to);
    if (down !== world.downstreamDown)
      timeline.push({ second, what: down ? TIMELINE.downstreamDown : TIMELINE.downstreamUp });
    world.downstreamDown = down;

    for (let k = 0; k < perSecond && sent < plan.events; k++, sent++) {
      const { partitionKey, body } = makeEvent(sent, now);
      hub.send(partitionKey, body, { run: plan.run, n: sent }, now);
    }
    for (const what of applyHostFaults(plan, plan.partitions, second, host, world))
      timeline.push({ second, what });
    for (const h of plan.happenings ?? []) {
      if (h.at !== second) continue;
      timeline.push({ second, what: h.what });
      await h.run();
    }

    await host.tick();
    await world.durable.catchUp();
    if (second % 60 === 59) await world.runWatchdog();

    // The store may be down (a scheduled outage): the run reads it like an operator would, and waits.
    const state: ObservedState = await world.runtime.breakerStore.getState().then(
      (st) => st.state,
      () => 'UNREACHABLE' as const,
    );
    if (state !== lastState) timeline.push({ second, what: TIMELINE.breaker(state) });
    lastState = state;
    if (host.isListening !== wasListening)
      timeline.push({ second, what: host.isListening ? TIMELINE.enabled : TIMELINE.disabled });
    wasListening = host.isListening;

    for (const link of world.approvalLinks()) {
      if (knownLinks.has(link)) continue;
      knownLinks.add(link);
      linkSeen.set(link, second);
      timeline.push({ second, what: TIMELINE.emailWithLink });
    }
    // What the app saved, seen before an approval can start draining it (and now and then).
    if (second % SAVED_POLL_SECONDS === 0) await saved.poll();
    if (hooks.midRun?.at === second) await hooks.midRun.check(await report(false));
    for (const [link, seenAt] of linkSeen) {
      if (second < (plan.approveNotBefore ?? 0) || !followLink(link, second - seenAt)) continue;
      linkSeen.delete(link);
      await saved.poll();
      const result = await world.approve(link, 'On-call operator');
      approvals.push({ second, postStatus: result.postStatus });
      timeline.push({ second, what: TIMELINE.followed(result.postStatus) });
      await world.durable.catchUp();
    }

    const running = [...world.durable.hosts.values()].some((h) => h.runtimeStatus === 'Running');
    const faultsOver = second >= (plan.minSeconds ?? 0);
    settled =
      faultsOver &&
      sent >= plan.events &&
      host.drained &&
      !host.restartPending &&
      !world.isDisabled() &&
      state === 'CLOSED' &&
      !running;
    if (hooks.observer) {
      const backlog = hub.partitionIds.reduce(
        (n, id) => n + hub.size(id) - Math.max(host.checkpoint(id), hub.beginSequenceNumber(id)),
        0,
      );
      await hooks.observer({
        second,
        now,
        sent,
        backlog,
        state,
        listening: host.isListening,
        downstreamDown: world.downstreamDown,
        entries: timeline.slice(entriesBefore),
        pendingLinks: [...linkSeen.keys()],
      });
    }
    if (settled) break;
    world.clock.advance(1000);
  }

  return report(settled);
}

export const keyOf = (partitionId: string | null | undefined, sequenceNumber: number | null | undefined) =>
  `${partitionId ?? '?'}/${sequenceNumber ?? '?'}`;
