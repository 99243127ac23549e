import type { TripRecord } from '../src/breaker/breakerStore';
import { deadLetterReasons } from '../src/deadLetters/deadLetter';
import type { TimelineEntry } from '../sim/world/scenario';

/** Where each sent event ended up (design G1): every event is exactly one of these, or lost. */
export interface DemoSummary {
  readonly sent: number;
  readonly processed: number;
  /** Of the processed: readings a newer one of the same key in their own batch superseded (not written). */
  readonly superseded: number;
  readonly deadLettered: number;
  /** Dead-lettered events per reason (`poison`, `failed`, `isolated`, `retries-exhausted`). */
  readonly deadLetteredByReason: Readonly<Record<string, number>>;
  /** Still in the hub, behind an un-advanced checkpoint. */
  readonly held: number;
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
  readonly settled: boolean;
  readonly seconds: number;
}

export const eventKey = (e: SentEvent) => `${e.partitionId}/${e.sequenceNumber}`;

/** Classifies every sent event; processed wins over dead-lettered (a redriven letter was processed). */
export function buildSummary<E extends SentEvent>(input: SummaryInput<E>): DemoSummary {
  let processed = 0;
  let superseded = 0;
  let deadLettered = 0;
  let held = 0;
  const lost: string[] = [];
  const byReason: Record<string, number> = {};
  for (const event of input.sent) {
    const key = eventKey(event);
    if (input.processed.has(key)) processed++;
    else if (input.superseded?.(event)) {
      processed++;
      superseded++;
    } else if (input.deadLettered.has(key)) {
      deadLettered++;
      const reason = input.deadLettered.get(key) ?? '?';
      byReason[reason] = (byReason[reason] ?? 0) + 1;
    } else if (event.sequenceNumber >= input.checkpoint(event.partitionId)) held++;
    else lost.push(key);
  }
  return {
    sent: input.sent.length,
    processed,
    superseded,
    deadLettered,
    deadLetteredByReason: byReason,
    held,
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

/** The summary as a small two-column table. */
export function formatSummaryTable(summary: DemoSummary): string[] {
  const rows: [string, string][] = [
    ['sent', String(summary.sent)],
    ['processed', String(summary.processed)],
    ['dead-lettered', String(summary.deadLettered)],
    ['held', String(summary.held)],
    ['lost', String(summary.lost)],
  ];
  const width = Math.max(...rows.map(([, v]) => v.length));
  const lines = [
    '+---------------+' + '-'.repeat(width + 2) + '+',
    ...rows.map(([label, value]) => `| ${label.padEnd(13)} | ${value.padStart(width)} |`),
    '+---------------+' + '-'.repeat(width + 2) + '+',
  ];
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
