import type { HttpHandler } from '@azure/functions';

import { ensureError } from '../kernel/ensureError';
import { json, readJsonBody } from '../web/jsonResponse';
import type { OperatorDeps } from './operatorDeps';
import { tripBodySchema } from './requestSchemas';

/**
 * `POST /api/breaker/trip` `{ reason, by? }`: a manual trip. CLOSED/HALF_OPEN → OPEN with a new trip
 * id, then the breaker orchestration starts exactly as when the trigger trips it (disable, email,
 * wait for approval). If the start fails, the trip stands and the watchdog starts the orchestration.
 */
export function makeTripHandler(deps: OperatorDeps): HttpHandler {
  return async (request, context) => {
    const body = await readJsonBody(request, tripBodySchema);
    if (!body.ok) return body.response;
    const reason =
      body.value.by === undefined ? body.value.reason : `${body.value.reason} (by ${body.value.by})`;
    let tripId: string | undefined;
    try {
      tripId = await deps.store.openManually(reason, deps.clock.now());
    } catch (error) {
      context.error(`manual trip: breaker store unavailable: ${ensureError(error).message}`);
      return json(503, { error: 'breaker store unavailable; nothing was changed' });
    }
    if (tripId === undefined) {
      const state = await deps.store.getState().catch(() => undefined);
      return json(409, { error: 'the circuit is already open', tripId: state?.tripId ?? null });
    }
    context.warn(`circuit tripped by hand (trip ${tripId}): ${reason}`);
    try {
      const started = await deps.orchestration(context).start(tripId);
      return json(202, { tripId, instanceId: started.instanceId, orchestrationStarted: started.started });
    } catch (error) {
      const message = ensureError(error).message;
      context.error(
        `manual trip ${tripId}: orchestration not started (${message}); the watchdog will start it`,
      );
      return json(202, { tripId, instanceId: null, orchestrationStarted: false, problem: message });
    }
  };
}
