import type { HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';

import { emitEvent } from '../kernel/appEvent';
import { checkPersonName, MAX_PERSON_NAME_LENGTH } from '../kernel/personName';
import { raiseApproval } from '../orchestration/raiseApproval';
import { signedInForApi } from './signedInApprover';

/** What a trip id looks like (`t<ms>-<random>`), generously: it becomes part of an instance id. */
const TRIP_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * Internal (function key) endpoint that raises `Approval` for a trip: for tests and operators with a
 * key. The public, signed-link approval page calls the same `raiseApproval`, and the approver's name
 * follows the same rule (control characters to spaces, trimmed, 1 to 100 characters): it reaches
 * the audit record, the orchestration status and the emails. With APPROVAL_REQUIRE_SIGNED_IN
 * (`signedInApprovers` set) the key alone is refused like on every other path that approves.
 */
export function makeInternalApprovalHandler(
  signedInApprovers: () => readonly string[] | undefined = () => undefined,
) {
  return async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    const signedIn = signedInForApi(request.headers, signedInApprovers());
    if (!signedIn.ok) return { status: signedIn.status, jsonBody: { error: signedIn.error } };
    const body: unknown = await request.json().catch(() => undefined);
    const { tripId, approvedBy } = (typeof body === 'object' && body !== null ? body : {}) as Record<
      string,
      unknown
    >;
    if (typeof tripId !== 'string' || !TRIP_ID.test(tripId))
      return badRequest('tripId must be a trip id (letters, digits, _ or -, at most 100)');
    const name = checkPersonName(typeof approvedBy === 'string' ? approvedBy : undefined);
    if (!name.ok)
      return badRequest(
        name.problem === 'empty'
          ? 'approvedBy must name who approves (it goes into the audit record)'
          : `approvedBy must be at most ${MAX_PERSON_NAME_LENGTH} characters`,
      );
    const approver = signedIn.approver ?? name.name;
    const result = await raiseApproval(df.getClient(context), tripId, approver);
    context.log(
      `internal approval of trip ${tripId} by ${approver}: ${result.ok ? 'raised' : result.reason}`,
    );
    if (result.ok)
      emitEvent(context, 'log', 'tripApproved', { tripId, approvedBy: approver, source: 'internal' });
    if (result.ok) return { status: 202, jsonBody: result };
    return { status: result.reason === 'no-instance' ? 404 : 409, jsonBody: result };
  };
}

const badRequest = (error: string): HttpResponseInit => ({
  status: 400,
  jsonBody: { error: `expected a JSON body { tripId, approvedBy }: ${error}` },
});
