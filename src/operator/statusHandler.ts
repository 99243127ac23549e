import type { HttpHandler } from '@azure/functions';

import type { StoreHealth } from '../breaker/storeHealth';
import type { ProgressSnapshot } from '../processing/partitionProgress';
import { json } from '../web/jsonResponse';
import type { OperatorDeps } from './operatorDeps';
import { type OperatorStatus, readOperatorStatus } from './operatorStatus';
import { downstreamView, heldView } from './safetyView';
import { toTripView } from './tripView';

/** `GET /api/breaker/status`: always 200 with what could be read; outages are fields, not errors (G6). */
export function makeStatusHandler(deps: OperatorDeps): HttpHandler {
  return async (_request, context) => {
    const s = await readOperatorStatus(deps, context);
    const lastTrip = s.trips?.[0];
    return json(200, {
      functionName: s.functionName,
      environment: deps.environmentName ?? null,
      at: new Date(s.at).toISOString(),
      state: s.breaker?.state ?? null,
      tripId: s.breaker?.tripId ?? null,
      since: s.breaker ? new Date(s.breaker.since).toISOString() : null,
      phase: s.orchestration?.phase ?? null,
      orchestrationStatus: s.orchestration?.runtimeStatus ?? null,
      failuresInWindow: s.failuresInWindow,
      threshold: deps.policy.threshold,
      probationThreshold: deps.policy.probationThreshold,
      activeThreshold: s.activeThreshold,
      windowSeconds: deps.policy.windowSeconds,
      bucketSeconds: deps.policy.bucketSeconds,
      probationSeconds: deps.policy.probationSeconds,
      lastTrip: lastTrip ? toTripView(lastTrip, s.at) : null,
      triggerDisabled: s.triggerDisabled,
      maintenance: maintenanceView(s.maintenance),
      deadLetters: s.deadLetters,
      saved: s.saved,
      downstream: downstreamView(s.currentTrip?.probe),
      held: heldView(s.held, s.at),
      store: {
        ...s.store,
        ...(deps.storeHealth === undefined ? {} : { seenByProcessing: healthView(deps.storeHealth()) }),
      },
      processing: s.progress === null ? null : progressView(s.progress),
      problems: s.problems,
    });
  };
}

/** Held batches and re-runs per partition, as the instance that answers sees them. */
function progressView(p: ProgressSnapshot) {
  return {
    seenBy: 'this instance',
    heldBatches: p.heldBatches,
    stuckPartitions: p.stuckPartitions,
    stuckEpisodes: p.stuckEpisodes,
    deadLettered: p.deadLettered,
    partitions: p.partitions.map((v) => ({
      partitionId: v.partitionId,
      held: v.held,
      reason: v.reason ?? null,
      firstSequence: v.firstSequence ?? null,
      rerun: v.rerun,
      heldSince: v.heldSince === undefined ? null : new Date(v.heldSince).toISOString(),
      heldRuns: v.heldRuns,
      maxRerun: v.maxRerun,
      stuck: v.stuck,
    })),
  };
}

function healthView(h: StoreHealth) {
  return {
    ok: h.ok,
    since: h.since === undefined ? null : new Date(h.since).toISOString(),
    failedCalls: h.failedCalls,
    lastError: h.lastError ?? null,
  };
}

/** The maintenance in force: null when none, `{ unknown: true }` when its record did not read. */
function maintenanceView(m: OperatorStatus['maintenance']) {
  if (m === null) return { unknown: true };
  if (m === undefined) return null;
  return { reason: m.reason, by: m.by, since: new Date(m.since).toISOString() };
}
