import type { HttpHandler } from '@azure/functions';

import { ensureError } from '../kernel/ensureError';
import { badRequest, json } from '../web/jsonResponse';
import type { OperatorDeps } from './operatorDeps';
import { historyQuerySchema } from './requestSchemas';
import { toTripView } from './tripView';

/** `GET /api/breaker/history?limit=20`: the audit trail of trips and approvals, newest first. */
export function makeHistoryHandler(deps: Pick<OperatorDeps, 'store' | 'clock'>): HttpHandler {
  return async (request, context) => {
    const query = historyQuerySchema.safeParse(Object.fromEntries(request.query.entries()));
    if (!query.success) return badRequest('invalid query', query.error.issues);
    try {
      const trips = await deps.store.history(query.data.limit);
      const now = deps.clock.now();
      return json(200, { trips: trips.map((t) => toTripView(t, now)) });
    } catch (error) {
      context.error(`history: breaker store unavailable: ${ensureError(error).message}`);
      return json(503, { error: 'breaker store unavailable' });
    }
  };
}
