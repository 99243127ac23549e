import type { HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';

import { raiseApproval } from './raiseApproval';

/**
 * Internal (function key) endpoint that raises `Approval` for a trip: for tests and operators with a
 * key. The public, signed-link approval page calls the same `raiseApproval`.
 */
export function makeInternalApprovalHandler() {
  return async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    const body: unknown = await request.json().catch(() => undefined);
    const { tripId, approvedBy } = (typeof body === 'object' && body !== null ? body : {}) as Record<
      string,
      unknown
    >;
    if (typeof tripId !== 'string' || tripId === '' || typeof approvedBy !== 'string' || approvedBy === '') {
      return { status: 400, jsonBody: { error: 'expected a JSON body { tripId, approvedBy }' } };
    }
    const result = await raiseApproval(df.getClient(context), tripId, approvedBy);
    context.log(
      `internal approval of trip ${tripId} by ${approvedBy}: ${result.ok ? 'raised' : result.reason}`,
    );
    if (result.ok) return { status: 202, jsonBody: result };
    return { status: result.reason === 'no-instance' ? 404 : 409, jsonBody: result };
  };
}
