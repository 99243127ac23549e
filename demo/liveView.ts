import type { BreakwaterWorld } from '../sim/world/breakwaterWorld';
import type { ScenarioTick, TimelineEntry } from '../sim/world/scenario';
import { readableTrips } from '../src/breaker/breakerStore';
import { describeEntry, formatStatus, stamp } from './describe';
import type { Pacer } from './pacer';
import { DEMO_RUN } from './plan';
import { eventKey } from './summary';

export interface LiveViewOptions {
  readonly world: BreakwaterWorld;
  readonly print: (line: string) => void;
  readonly pacer: Pacer;
  readonly autoApproveSeconds: number | undefined;
  /** Simulated seconds between status lines. */
  readonly statusEvery: number;
  /** Prints the app's own log lines of this second after the second's timeline (optional). */
  readonly flushAppLog?: () => void;
}

export interface LiveView {
  readonly observe: (tick: ScenarioTick) => Promise<void>;
  /** Keys (`partition/sequence`) the sink wrote for this run. */
  readonly processed: ReadonlySet<string>;
  /** Approvals a person made on the approval page (the run's timeline only has the ones it made). */
  readonly approvals: readonly TimelineEntry[];
}

/** Prints the run as it happens (status lines, state changes, emails with their links) and paces it. */
export function makeLiveView(options: LiveViewOptions): LiveView {
  const { world, print } = options;
  const processed = new Set<string>();
  let writesSeen = 0;
  let emailsSeen = world.smtp.received.length;
  let raisedSeen = world.durable.raised.length;
  let processedAtLastStatus = 0;
  let lastStatusSecond = -1;
  let waitingSince: number | undefined;
  let waitingFor: string | undefined;
  const approvals: TimelineEntry[] = [];

  const failuresInWindow = async (now: number) =>
    (await world.runtime.breakerStore.windowBuckets(now)).reduce((n, b) => n + b.failures, 0);

  const observe = async (tick: ScenarioTick) => {
    for (; writesSeen < world.writes.length; writesSeen++) {
      const w = world.writes[writesSeen];
      if (w?.run === DEMO_RUN) processed.add(eventKey(w));
    }

    for (; raisedSeen < world.durable.raised.length; raisedSeen++) {
      const raised = world.durable.raised[raisedSeen];
      const byRun = tick.entries.some((e) => e.what.startsWith('approval link followed'));
      if (byRun) continue;
      print(
        `${stamp(tick.second)}  OK approval received from the approval page (event ${raised?.name ?? '?'})`,
      );
      approvals.push({ second: tick.second, what: 'approval received from the approval page' });
    }

    const tripped = tick.entries.some((e) => e.what === 'breaker OPEN');
    const failuresAtTrip = tripped
      ? readableTrips(await world.runtime.breakerStore.history(1))[0]?.failuresInWindow
      : undefined;
    for (const entry of tick.entries) {
      const line = describeEntry(entry, {
        breaker: world.runtime.config.breaker,
        functionName: world.runtime.config.functionName,
        failuresAtTrip,
      });
      if (line !== undefined) print(line);
    }

    for (; emailsSeen < world.smtp.received.length; emailsSeen++) {
      const mail = world.smtp.received[emailsSeen];
      const to =
        mail?.to === undefined
          ? ''
          : (Array.isArray(mail.to) ? mail.to : [mail.to]).map((a) => a.text).join(', ');
      print(`${stamp(tick.second)}  @@ email sent to ${to}: "${mail?.subject ?? ''}"`);
      const link = /(https?:\/\/\S+\/api\/approve\?token=[A-Za-z0-9._~-]+)/.exec(mail?.text ?? '')?.[1];
      if (link !== undefined) print(`${' '.repeat(12)}approval link: ${link}`);
    }

    // Waiting = OPEN with a link out (a person's click leaves the link "pending" but moves the state on).
    const waiting = tick.state === 'OPEN' && tick.pendingLinks.length > 0;
    const latestLink = tick.pendingLinks.at(-1);
    if (waiting && waitingFor !== latestLink) {
      waitingSince = tick.second;
      waitingFor = latestLink;
      print(
        options.autoApproveSeconds === undefined
          ? `${stamp(tick.second)}  ?? waiting for approval: open the link above in a browser and press Approve ` +
              '(the simulation now runs in real time; Ctrl-C stops the demo)'
          : `${stamp(tick.second)}  ?? waiting for approval: the demo follows the link itself in ${options.autoApproveSeconds} simulated seconds`,
      );
    } else if (!waiting) {
      waitingSince = undefined;
      waitingFor = undefined;
    }
    const manualWait = waiting && options.autoApproveSeconds === undefined;

    const every = manualWait ? Math.max(options.statusEvery, 10) : options.statusEvery;
    if (lastStatusSecond < 0 || tick.second - lastStatusSecond >= every) {
      const elapsed = Math.max(1, tick.second - lastStatusSecond);
      const held = world.runtime.progress.snapshot().partitions.filter((p) => p.held);
      print(
        formatStatus({
          second: tick.second,
          sent: tick.sent,
          processedPerSecond: (processed.size - processedAtLastStatus) / elapsed,
          backlog: tick.backlog,
          failuresInWindow: await failuresInWindow(tick.now),
          heldBatches: held.length,
          maxRerun: Math.max(0, ...held.map((p) => p.rerun)),
          state: tick.state,
          listening: tick.listening,
          downstreamDown: tick.downstreamDown,
        }),
      );
      processedAtLastStatus = processed.size;
      lastStatusSecond = tick.second;
    }
    if (manualWait && waitingSince !== undefined && (tick.second - waitingSince) % 60 === 59)
      print(`${stamp(tick.second)}  ?? still waiting for approval: ${latestLink ?? ''}`);

    options.flushAppLog?.();
    await options.pacer.wait(manualWait);
  };
  return { observe, processed, approvals };
}
