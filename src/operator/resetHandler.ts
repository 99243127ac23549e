import type { HttpHandler, HttpResponseInit, InvocationContext } from '@azure/functions';

import { signedInForApi } from '../approval/signedInApprover';
import type { BreakerState } from '../breaker/breakerStore';
import { ensureError } from '../kernel/ensureError';
import { describeMaintenance } from '../maintenance/maintenance';
import { APPROVABLE_PHASES } from '../orchestration/breakerStatus';
import { json, readJsonBody } from '../web/jsonResponse';
import type { OperatorDeps } from './operatorDeps';
import { resetBodySchema } from './requestSchemas';

/**
 * `POST /api/breaker/reset` `{ by?, force? }`.
 *
 * Semantics (G5): a reset is an approval. When the current trip's orchestration waits for one, the
 * reset raises `Approval` for that trip, so the restart takes the one safe path (reset the window,
 * HALF_OPEN probation, re-enable the trigger, close after a quiet probation). Otherwise it changes
 * nothing and answers 409, unless `force: true`: the break-glass for an OPEN/HALF_OPEN circuit whose
 * orchestration is gone or stuck. Force empties the window first, moves the state to CLOSED (compare-
 * and-set on the trip id), ends the trip's orchestration, enables the trigger and records who did it; no
 * probation. Both approve a restart, so with APPROVAL_REQUIRE_SIGNED_IN both need a signed-in principal
 * in APPROVERS besides the function key, and record that principal rather than the typed `by`.
 */
export function makeResetHandler(deps: OperatorDeps): HttpHandler {
  return async (request, context) => {
    const body = await readJsonBody(request, resetBodySchema);
    if (!body.ok) return body.response;
    const signedIn = signedInForApi(request.headers, deps.signedInApprovers);
    if (!signedIn.ok) return json(signedIn.status, { error: signedIn.error });
    const by = signedIn.approver ?? body.value.by ?? 'operator API';
    let state: BreakerState;
    try {
      state = await deps.store.getState();
    } catch (error) {
      context.error(`reset: breaker store unavailable: ${ensureError(error).message}`);
      return json(503, { error: 'breaker store unavailable; nothing was changed' });
    }
    const { tripId } = state;
    if (state.state === 'CLOSED' || tripId === undefined)
      return json(409, {
        error: 'the circuit is already closed',
        state: state.state,
        tripId: tripId ?? null,
      });

    const orchestration = deps.orchestration(context);
    const view = await orchestration.view(tripId).catch(() => undefined);
    if (view?.phase !== undefined && APPROVABLE_PHASES.includes(view.phase)) {
      const raised = await orchestration.raiseApproval(tripId, by);
      if (raised.ok) {
        context.warn(`reset: trip ${tripId} approved through the operator API by ${by}`);
        await deps.store
          .updateTrip(tripId, { approvedAt: deps.clock.now(), approvedBy: by })
          .catch(() => undefined);
        return json(202, { action: 'approved', tripId });
      }
    }
    if (body.value.force !== true) {
      return json(409, {
        error:
          'the orchestration of this trip is not waiting for approval; nothing was changed. ' +
          'Send {"force": true} to close the circuit and enable the trigger anyway.',
        state: state.state,
        tripId,
        phase: view?.phase ?? null,
      });
    }
    return forceClose(deps, context, state, tripId, by);
  };
}

async function forceClose(
  deps: OperatorDeps,
  context: InvocationContext,
  state: BreakerState,
  tripId: string,
  by: string,
): Promise<HttpResponseInit> {
  const now = deps.clock.now();
  try {
    // The window is emptied before anything can let the listener start again (G5).
    await deps.store.resetWindow();
    if (!(await deps.store.transition(state.state, 'CLOSED', tripId, now)))
      return json(409, { error: 'the breaker state changed meanwhile; nothing was forced', tripId });
  } catch (error) {
    return json(503, { error: `breaker store unavailable: ${ensureError(error).message}` });
  }
  context.warn(`reset: circuit FORCED closed for trip ${tripId} by ${by}`);
  // The episode is over: its orchestration must not go on (a pending disable retry, reminders). Its
  // activities also re-read the store before each ARM write, so a failure here is only logged.
  await deps
    .orchestration(context)
    .end(tripId, 'forced reset through the operator API')
    .catch((error: unknown) => {
      context.warn(`reset: could not end the orchestration of trip ${tripId}: ${ensureError(error).message}`);
    });
  await deps.store
    .updateTrip(tripId, { closedAt: now, approvedBy: `${by} (forced reset)` })
    .catch(() => undefined);
  // A forced reset closes the episode; it does not end maintenance mode, which only leaving it does.
  const maintenance = await deps.maintenance.current().catch(() => null);
  if (maintenance !== undefined)
    return json(200, {
      action: 'forced-closed',
      tripId,
      triggerEnabled: false,
      note:
        maintenance === null
          ? 'the maintenance record did not read: the trigger was left disabled; the watchdog enables it once it reads no maintenance'
          : describeMaintenance(maintenance),
    });
  try {
    await deps.triggerSwitch.setDisabled(deps.functionName, false);
  } catch (error) {
    // The soft state is CLOSED already (processing resumes where the trigger still runs); say so.
    return json(502, {
      action: 'forced-closed',
      tripId,
      error: `circuit closed, but the trigger could not be enabled: ${ensureError(error).message}`,
    });
  }
  return json(200, { action: 'forced-closed', tripId });
}
