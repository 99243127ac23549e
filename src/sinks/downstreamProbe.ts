/**
 * The latest health probe of the downstream while the breaker is OPEN, kept on the trip record so the
 * approval page, the dashboard and the reminder emails show the same line.
 */
export interface DownstreamProbe {
  /** When the last probe ran. */
  readonly at: number;
  readonly ok: boolean;
  /** Why the last probe failed (bounded, secrets masked); absent when it succeeded. */
  readonly error?: string;
  /** Start of the current streak: the first probe of the same outcome in a row. */
  readonly since: number;
}

export type ProbeOutcome = { readonly ok: true } | { readonly ok: false; readonly error: string };

/**
 * The record after one more probe: a streak keeps its start, a change of outcome starts a new one. The
 * first probe of a trip that fails continues the failure that tripped it: it is failing since `trippedAt`.
 */
export function nextProbe(
  previous: DownstreamProbe | undefined,
  outcome: ProbeOutcome,
  now: number,
  trippedAt?: number,
): DownstreamProbe {
  const since =
    previous === undefined
      ? outcome.ok
        ? now
        : Math.min(trippedAt ?? now, now)
      : previous.ok === outcome.ok
        ? previous.since
        : now;
  return outcome.ok ? { at: now, ok: true, since } : { at: now, ok: false, error: outcome.error, since };
}
