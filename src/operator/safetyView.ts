import { describeBacklog } from '../hub/describeBacklog';
import type { HeldBacklog } from '../hub/heldBacklog';
import { describeDownstream } from '../sinks/describeDownstream';
import type { DownstreamProbe } from '../sinks/downstreamProbe';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** The downstream probe for the status API: the same line the page shows, and its parts. */
export function downstreamView(probe: DownstreamProbe | undefined) {
  return {
    healthy: probe?.ok ?? null,
    line: describeDownstream(probe),
    lastProbeAt: iso(probe?.at),
    since: iso(probe?.since),
    error: probe?.error ?? null,
  };
}

/** The held backlog for the status API; `known: false` carries the reason instead of numbers. */
export function heldView(held: HeldBacklog | null, now: number) {
  if (held === null) return null;
  const line = describeBacklog(held, now);
  if (!held.known) return { known: false, line, reason: held.reason, at: iso(held.at) };
  return {
    known: true,
    line,
    at: iso(held.at),
    total: held.total,
    oldestEnqueuedAt: iso(held.oldestEnqueuedAt),
    retentionEndsAt: iso(held.retentionEndsAt),
    retentionLeftMs: held.retentionEndsAt === undefined ? null : held.retentionEndsAt - now,
    // The same figure under the name the heartbeat and the channels use (retention minus the oldest age).
    timeToFirstLossMs: held.retentionEndsAt === undefined ? null : held.retentionEndsAt - now,
    // When the retention guard saves them unless approved first; null when it is off or nothing waits.
    guardSavesAt: iso(held.guardSavesAt),
    oldestUnknown: held.oldestUnknown ?? null,
    partitions: held.partitions.map((p) => ({
      partitionId: p.partitionId,
      held: p.held,
      oldestEnqueuedAt: iso(p.oldestEnqueuedAt),
    })),
  };
}
