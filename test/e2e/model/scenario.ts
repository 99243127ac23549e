import type { DeadLetterMessage } from '../../../src/processing/blobQueueDeadLetterStore';
import type { BreakwaterWorld } from './breakwaterWorld';
import { FUNCTION_NAME } from './breakwaterWorld';
import { EventHubModel, type HubEvent } from './eventHubModel';
import { TriggerHostModel } from './triggerHostModel';

/** A fault schedule and workload for one run; times are seconds from the run's start. */
export interface ScenarioPlan {
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
  readonly crashes: readonly { readonly at: number; readonly partition: number }[];
  /** Upper bound of simulated seconds before the run gives up. */
  readonly maxSeconds: number;
  /** Other things that happen at a given second (a store outage, a restart), run before that second's round. */
  readonly happenings?: readonly {
    readonly at: number;
    readonly what: string;
    readonly run: () => Promise<void>;
  }[];
}

export interface TimelineEntry {
  readonly second: number;
  readonly what: string;
}

export interface ScenarioReport {
  readonly sent: readonly HubEvent[];
  readonly deadLetters: readonly DeadLetterMessage[];
  readonly host: TriggerHostModel;
  readonly timeline: readonly TimelineEntry[];
  readonly approvals: readonly { readonly second: number; readonly postStatus: number }[];
  readonly orchestrationIds: readonly string[];
  readonly seconds: number;
  readonly settled: boolean;
}

/** Builds the body of event `i` of a run: a valid sensor reading, or poison. */
function eventBody(plan: ScenarioPlan, i: number, now: number): Buffer {
  if (plan.poisonEvery > 0 && i % plan.poisonEvery === plan.poisonEvery - 1)
    return Buffer.from(`not json ${plan.run} #${i}`);
  return Buffer.from(
    JSON.stringify({
      homeId: `home-${plan.run}-${i % plan.homes}`,
      sensorId: `door-${i % 3}`,
      kind: 'contact',
      state: i % 2 === 0 ? 'open' : 'closed',
      occurredAt: new Date(now).toISOString(),
    }),
  );
}

/**
 * Runs one scenario second by second on the simulation clock: sends events, switches the downstream
 * on and off, lets the host model deliver batches, runs due orchestration work and the watchdog, and
 * approves emailed links like an operator. Stops once everything settled (all events behind the
 * checkpoints, trigger enabled, breaker CLOSED, no orchestration running) or at `maxSeconds`.
 */
export async function runScenario(world: BreakwaterWorld, plan: ScenarioPlan): Promise<ScenarioReport> {
  const hub = new EventHubModel(plan.partitions);
  const host = new TriggerHostModel({
    functionName: FUNCTION_NAME,
    hub,
    clock: world.clock,
    isDisabled: () => Promise.resolve(world.isDisabled()),
    inputData: () => world.durableClientInput(FUNCTION_NAME),
  });
  const timeline: TimelineEntry[] = [];
  const approvals: { second: number; postStatus: number }[] = [];
  const knownLinks = new Set(world.approvalLinks());
  const linkSeen = new Map<string, number>();
  const startsBefore = world.durable.starts.length;
  const perSecond = Math.ceil(plan.events / Math.max(1, plan.sendSeconds));
  let sent = 0;
  let lastState = '';
  let wasListening = true;
  let second = 0;
  let settled = false;

  for (; second <= plan.maxSeconds; second++) {
    const now = world.clock.now();
    const down = plan.outages.some((o) => second >= o.from && second < o.to);
    if (down !== world.downstreamDown)
      timeline.push({ second, what: down ? 'downstream DOWN' : 'downstream back UP' });
    world.downstreamDown = down;

    for (let k = 0; k < perSecond && sent < plan.events; k++, sent++) {
      hub.send(
        `home-${plan.run}-${sent % plan.homes}`,
        eventBody(plan, sent, now),
        { run: plan.run, n: sent },
        now,
      );
    }
    for (const c of plan.crashes)
      if (c.at === second) host.crashNextInvocation(String(c.partition % plan.partitions));

    await host.tick();
    await world.durable.catchUp();
    if (second % 60 === 59) await world.runWatchdog();

    const state = (await world.runtime.breakerStore.getState()).state;
    if (state !== lastState) timeline.push({ second, what: `breaker ${state}` });
    lastState = state;
    if (host.isListening !== wasListening)
      timeline.push({
        second,
        what: host.isListening ? 'trigger ENABLED (listener resumes)' : 'trigger DISABLED (listener stopped)',
      });
    wasListening = host.isListening;

    for (const link of world.approvalLinks()) {
      if (knownLinks.has(link)) continue;
      knownLinks.add(link);
      linkSeen.set(link, second);
      timeline.push({ second, what: 'email with approval link received' });
    }
    for (const [link, seenAt] of linkSeen) {
      if (second < seenAt + plan.approveAfter) continue;
      linkSeen.delete(link);
      const result = await world.approve(link, 'On-call operator');
      approvals.push({ second, postStatus: result.postStatus });
      timeline.push({ second, what: `approval link followed (HTTP ${result.postStatus})` });
      await world.durable.catchUp();
    }

    const running = [...world.durable.hosts.values()].some((h) => h.runtimeStatus === 'Running');
    if (sent >= plan.events && host.drained && !world.isDisabled() && state === 'CLOSED' && !running) {
      settled = true;
      break;
    }
    world.clock.advance(1000);
  }

  return {
    sent: hub.all(),
    deadLetters: (await world.drainDeadLetters()).filter(
      (m) => (m.properties as { run?: string } | undefined)?.run === plan.run,
    ),
    host,
    timeline,
    approvals,
    orchestrationIds: world.durable.starts.slice(startsBefore).map((s) => s.instanceId),
    seconds: second,
    settled,
  };
}

/** Keys (partition/sequence) of the events of a run. */
export const keyOf = (partitionId: string | null | undefined, sequenceNumber: number | null | undefined) =>
  `${partitionId ?? '?'}/${sequenceNumber ?? '?'}`;
