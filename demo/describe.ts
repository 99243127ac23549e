import { TIMELINE, type TimelineEntry } from '../sim/world/scenario';
import type { BreakerConfig } from '../src/breaker/breakerPolicy';

/** One status line of the live view. */
export interface Status {
  readonly second: number;
  readonly sent: number;
  readonly processedPerSecond: number;
  readonly backlog: number;
  readonly failuresInWindow: number;
  /** Partitions whose batch is held now, and the most re-runs among them (the app's own view). */
  readonly heldBatches: number;
  readonly maxRerun: number;
  readonly state: string;
  readonly listening: boolean;
  readonly downstreamDown: boolean;
}

export const stamp = (second: number) => `t+${second}s`.padStart(7);

export function formatStatus(s: Status): string {
  return [
    stamp(s.second),
    `sent ${String(s.sent).padStart(5)}`,
    `processed/s ${String(Math.round(s.processedPerSecond)).padStart(4)}`,
    `backlog ${String(s.backlog).padStart(5)}`,
    `failures in window ${String(s.failuresInWindow).padStart(3)}`,
    `held ${String(s.heldBatches).padStart(2)} (re-run ${String(s.maxRerun).padStart(2)})`,
    `breaker ${s.state.padEnd(9)}`,
    `trigger ${s.listening ? 'enabled ' : 'DISABLED'}`,
    `downstream ${s.downstreamDown ? 'DOWN' : 'up'}`,
  ].join('  ');
}

export interface EntryContext {
  readonly breaker: BreakerConfig;
  readonly functionName: string;
  /** Failures in the window when the breaker tripped (from the trip record). */
  readonly failuresAtTrip: number | undefined;
}

/**
 * A timeline entry as a line for a person, or undefined when another line says it better (emails are
 * printed with their subject and link; the initial CLOSED is the normal state).
 */
export function describeEntry(entry: TimelineEntry, ctx: EntryContext): string | undefined {
  const b = ctx.breaker;
  const line = (mark: string, text: string) => `${stamp(entry.second)}  ${mark} ${text}`;
  switch (entry.what) {
    case TIMELINE.downstreamDown:
      return line('>>', 'downstream OFFLINE: the home-activity store answers 503 to every write');
    case TIMELINE.downstreamUp:
      return line('>>', 'downstream back ONLINE');
    case TIMELINE.breaker('OPEN'):
      return line(
        '!!',
        `TRIPPED: breaker OPEN at ${ctx.failuresAtTrip ?? '?'} failures in window ` +
          `(limit ${b.threshold} in ${b.windowSeconds} s): every instance now holds its batch without calling the downstream`,
      );
    case TIMELINE.disabled:
      return line(
        '||',
        `trigger DISABLED: AzureWebJobs.${ctx.functionName}.Disabled=true written through ARM, the listener stopped`,
      );
    case TIMELINE.enabled:
      return line('>>', 'trigger ENABLED: the listener resumes from the last checkpoint');
    case TIMELINE.breaker('HALF_OPEN'):
      return line(
        '..',
        `breaker HALF_OPEN: window reset, probation for ${b.probationSeconds} s (trips again above ${b.probationThreshold} failures)`,
      );
    case TIMELINE.breaker('CLOSED'):
      return entry.second === 0 ? undefined : line('OK', 'breaker CLOSED: probation passed, back to normal');
    case TIMELINE.emailWithLink:
      return undefined;
    default:
      if (entry.what.startsWith('approval link followed'))
        return line('OK', `${entry.what}: confirmation page (GET), then the approval form (POST)`);
      return line('  ', entry.what);
  }
}
