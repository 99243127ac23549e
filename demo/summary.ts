import type { TimelineEntry } from '../sim/world/scenario';
import type { TripRecord } from '../src/breaker/breakerStore';
import { deadLetterReasons } from '../src/deadLetters/deadLetter';

/** Where each sent event ended up (design G1): every event is exactly one of these, or lost. */
export interface DemoSummary {
  readonly sent: number;
  readonly processed: number;
  /** Of the processed: readings a newer one of the same key in their own batch superseded (not written). */
  readonly superseded: number;
  readonly deadLettered: number;
  /** Dead-lettered events per reason (`poison`, `failed`, `isolated`, `retries-exhausted`). */
  readonly deadLetteredByReason: Readonly<Record<string, number>>;
  /** Saved by the app's retention guard before the hub's retention (drained since or not). */
  readonly saved: number;
  /** Of the saved: not (yet) processed, still waiting in the saved blobs. */
  readonly savedWaiting: number;
  /** Still in the hub (not expired), behind an un-advanced checkpoint. */
  readonly held: number;
  /** Of the lost: expired in the hub past its retention, unprocessed and unsaved. */
  readonly expiredUnprocessed: number;
  readonly lost: number;
  /** A few lost events (partition/sequence), for the report. */
  readonly lostSample: readonly string[];
  readonly settled: boolean;
  readonly seconds: number;
}

export interface SentEvent {
  readonly partitionId: string;
  readonly sequenceNumber: number;
}

export interface SummaryInput<E extends SentEvent = SentEvent> {
  readonly sent: readonly E[];
  /** Keys (`partition/sequence`) the sink wrote at least once. */
  readonly processed: ReadonlySet<string>;
  /** Readings key mode processed without a write: a newer one of their key in the same batch was written. */
  readonly superseded?: (event: E) => boolean;
  /** Keys found in the dead-letter queue, with the letter's reason. */
  readonly deadLettered: ReadonlyMap<string, string>;
  /** Sequence number of the next event to deliver, per partition. */
  readonly checkpoint: (partitionId: string) => number;
  /** Keys of events that expired in the hub (past its retention) by the end of the run. */
  readonly expired?: ReadonlySet<string>;
  /** Keys of events the app saved before the retention (blobs `saved/<partition>/<sequence>.json`). */
  readonly saved?: ReadonlySet<string>;
  readonly settled: boolean;
  readonly seconds: number;
}

export const eventKey = (e: SentEvent) => `${e.partitionId}/${e.sequenceNumber}`;

/**
 * Classifies every sent event; processed wins over dead-lettered (a redriven letter was processed) and
 * over saved (a drained one was); an event that expired in the hub unprocessed and unsaved is lost.
 */
export function buildSummary<E extends SentEvent>(input: SummaryInput<E>): DemoSummary {
  let processed = 0;
  let superseded = 0;
  let deadLettered = 0;
  let saved = 0;
  let savedWaiting = 0;
  let held = 0;
  let expiredUnprocessed = 0;
  const lost: string[] = [];
  const byReason: Record<string, number> = {};
  for (const event of input.sent) {
    const key = eventKey(event);
    const wasSaved = input.saved?.has(key) === true;
    if (wasSaved) saved++;
    if (input.processed.has(key)) processed++;
    else if (input.superseded?.(event)) {
      processed++;
      superseded++;
    } else if (input.deadLettered.has(key)) {
      deadLettered++;
      const reason = input.deadLettered.get(key) ?? '?';
      byReason[reason] = (byReason[reason] ?? 0) + 1;
    } else if (wasSaved) savedWaiting++;
    else if (input.expired?.has(key)) {
      expiredUnprocessed++;
      lost.push(key);
    } else if (event.sequenceNumber >= input.checkpoint(event.partitionId)) held++;
    else lost.push(key);
  }
  return {
    sent: input.sent.length,
    processed,
    superseded,
    deadLettered,
    deadLetteredByReason: byReason,
    saved,
    savedWaiting,
    held,
    expiredUnprocessed,
    lost: lost.length,
    lostSample: lost.slice(0, 10),
    settled: input.settled,
    seconds: input.seconds,
  };
}

/** 0 only when nothing was lost and the run settled (trigger enabled, breaker CLOSED, all checkpointed). */
export const exitCodeOf = (summary: DemoSummary): number => (summary.lost === 0 && summary.settled ? 0 : 1);

const reasonNotes: Readonly<Record<string, string>> = {
  poison: ' (not a valid reading)',
  failed: ' (the sink refused the event itself; an outage dead-letters nothing)',
  isolated: ' (failed alone after the set number of re-runs)',
  'retries-exhausted': ' (a finite host retry count ran out while held)',
  'future-timestamp': " (dated ahead of its event by more than the accepted skew: a gateway's clock)",
};

/** A retention in words: `7 days`, `10 minutes`, `90 seconds`. */
export function describeRetention(ms: number): string {
  const units = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ] as const;
  const [size, unit] = units.find(([u]) => ms % u === 0) ?? [1, 'ms'];
  const n = ms / size;
  return `${n} ${unit}${n === 1 || unit === 'ms' ? '' : 's'}`;
}

/** The summary as a small two-column table; `container` is where saved events are (the dead-letter container). */
export function formatSummaryTable(summary: DemoSummary, container = 'the dead-letter container'): string[] {
  const rows: [string, string][] = [
    ['sent', String(summary.sent)],
    ['processed', String(summary.processed)],
    ['dead-lettered', String(summary.deadLettered)],
    ['saved before retention', String(summary.saved)],
    ['held', String(summary.held)],
    ['lost', String(summary.lost)],
  ];
  const labels = Math.max(...rows.map(([label]) => label.length));
  const width = Math.max(...rows.map(([, v]) => v.length));
  const rule = `+${'-'.repeat(labels + 2)}+${'-'.repeat(width + 2)}+`;
  const lines = [
    rule,
    ...rows.map(([label, value]) => `| ${label.padEnd(labels)} | ${value.padStart(width)} |`),
    rule,
  ];
  if (summary.saved > 0)
    lines.push(
      `saved before retention: ${summary.saved} event(s) written to ${container}/saved/ before the hub's retention; ` +
        `${summary.saved - summary.savedWaiting} drained to the sink since (counted in processed), ${summary.savedWaiting} still waiting there`,
    );
  if (summary.expiredUnprocessed > 0)
    lines.push(
      `lost: ${summary.expiredUnprocessed} event(s) expired in the hub past its retention, never processed nor saved`,
    );
  if (summary.superseded > 0)
    lines.push(
      `processed: of which ${summary.superseded} superseded in their batch (a newer reading of the same sensor was written; ORDERING=key writes only the newest)`,
    );
  // Every reason, zeros too: "failed 0" is how a run shows that the outage dead-lettered nothing.
  const reasons = [
    ...deadLetterReasons,
    ...Object.keys(summary.deadLetteredByReason).filter(
      (r) => !(deadLetterReasons as readonly string[]).includes(r),
    ),
  ];
  lines.push(
    `dead-lettered by reason: ${reasons.map((r) => `${r} ${summary.deadLetteredByReason[r] ?? 0}${reasonNotes[r] ?? ''}`).join(', ')}`,
  );
  if (summary.lostSample.length > 0)
    lines.push(`lost events (first ${summary.lostSample.length}): ${summary.lostSample.join(', ')}`);
  lines.push(
    summary.settled
      ? `settled after ${summary.seconds} simulated seconds: trigger enabled, breaker CLOSED, every event checkpointed`
      : `did NOT settle within ${summary.seconds} simulated seconds`,
  );
  return lines;
}

/** `t+12s` relative to the run's start. */
export const at = (ms: number, startMs: number) => `t+${Math.round((ms - startMs) / 1000)}s`;

/** The breaker's episodes from the store's history, oldest first, one line each. */
export function formatTrips(trips: readonly TripRecord[], startMs: number): string[] {
  return [...trips]
    .filter((t) => t.openedAt >= startMs)
    .sort((a, b) => a.openedAt - b.openedAt)
    .map((t) => {
      const parts = [
        `trip ${t.tripId} (${t.cause})`,
        `opened ${at(t.openedAt, startMs)} at ${t.failuresInWindow} failures in window`,
      ];
      if (t.approvedAt !== undefined)
        parts.push(`approved ${at(t.approvedAt, startMs)}${t.approvedBy ? ` by ${t.approvedBy}` : ''}`);
      if (t.resumedAt !== undefined) parts.push(`resumed ${at(t.resumedAt, startMs)}`);
      if (t.closedAt !== undefined) parts.push(`closed ${at(t.closedAt, startMs)}`);
      return parts.join(', ');
    });
}

/** The run's timeline (state changes, trigger, emails, approvals) without the downstream toggles' noise. */
export function formatTimeline(entries: readonly TimelineEntry[]): string[] {
  return entries.map((e) => `${`t+${e.second}s`.padStart(7)}  ${e.what}`);
}
