import type { Accounting } from './accounting';
import { seconds } from './waitFor';

/** The counts of a run: every event sent is processed, dead-lettered, held, or lost. */
export interface RunCounts {
  readonly sent: number;
  readonly processed: number;
  readonly deadLettered: number;
  readonly byReason: ReadonlyMap<string, number>;
  readonly held: number;
  readonly lost: number;
  /** Event numbers neither in the sink nor in the dead letters (the first few, for the report). */
  readonly missing: readonly number[];
}

/**
 * Accounts for events 0..sent-1. Events found nowhere count as held while the hub still holds that
 * many behind the checkpoints (`heldInHub`), and as lost beyond that.
 */
export function countRun(sent: number, found: Accounting, heldInHub: number): RunCounts {
  const missing: number[] = [];
  const byReason = new Map<string, number>();
  for (let n = 0; n < sent; n++) {
    if (found.processed.has(n)) continue;
    const reason = found.deadLettered.get(n);
    if (reason === undefined) missing.push(n);
    else byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }
  const deadLettered = [...byReason.values()].reduce((a, b) => a + b, 0);
  const held = Math.min(missing.length, Math.max(0, heldInHub));
  return {
    sent,
    processed: sent - deadLettered - missing.length,
    deadLettered,
    byReason,
    held,
    lost: missing.length - held,
    missing: missing.slice(0, 10),
  };
}

/** Target time of each milestone the report measures from. */
export interface Milestones {
  readonly faultOn?: number;
  readonly tripped?: number;
  readonly disabled?: number;
  readonly notified?: number;
  readonly approved?: number;
  readonly resumed?: number;
  readonly drained?: number;
  readonly closed?: number;
}

const span = (from: number | undefined, to: number | undefined) =>
  from === undefined || to === undefined ? 'did not happen' : seconds(to - from);

export function formatCounts(c: RunCounts): string[] {
  const reasons = [...c.byReason].map(([r, n]) => `${r} ${n}`).join(', ') || 'none';
  const rows: [string, number][] = [
    ['sent', c.sent],
    ['processed', c.processed],
    ['dead-lettered', c.deadLettered],
    ['held', c.held],
    ['lost', c.lost],
  ];
  return [
    ...rows.map(([k, v]) => `  ${k.padEnd(14)}${String(v).padStart(6)}`),
    `  dead-lettered by reason: ${reasons}`,
    ...(c.missing.length > 0
      ? [`  not found (first ${c.missing.length}): events ${c.missing.join(', ')}`]
      : []),
  ];
}

export function formatTimings(m: Milestones): string[] {
  return [
    `  time to trip      ${span(m.faultOn, m.tripped)} (downstream down → breaker OPEN)`,
    `  time to disable   ${span(m.faultOn, m.disabled)} (downstream down → trigger Disabled in ARM)`,
    `  time to notify    ${span(m.faultOn, m.notified)} (downstream down → notification seen)`,
    `  time to resume    ${span(m.approved, m.resumed)} (approved → trigger enabled)`,
    `  time to drain     ${span(m.approved, m.drained)} (approved → every event accounted for, nothing held)`,
    `  time to close     ${span(m.approved, m.closed)} (approved → breaker CLOSED after probation)`,
  ];
}

/** `p0 -/24→57`: the last checkpointed sequence number per partition at three moments ('-' = none). */
export function formatCheckpoints(
  start: ReadonlyMap<string, number | undefined>,
  faultOn: ReadonlyMap<string, number | undefined>,
  end: ReadonlyMap<string, number | undefined>,
): string[] {
  const ids = [...new Set([...start.keys(), ...faultOn.keys(), ...end.keys()])].sort(
    (a, b) => Number(a) - Number(b),
  );
  if (ids.length === 0) return ['  no checkpoints found'];
  const show = (v: number | undefined) => (v === undefined ? '-' : String(v));
  const cells = ids.map(
    (id) => `p${id} ${show(start.get(id))}/${show(faultOn.get(id))}→${show(end.get(id))}`,
  );
  const lines: string[] = [];
  for (let i = 0; i < cells.length; i += 4) lines.push(`  ${cells.slice(i, i + 4).join('   ')}`);
  return lines;
}
