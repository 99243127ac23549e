import { app } from '@azure/functions';
import * as df from 'durable-functions';

import { makeInternalApprovalHandler } from './internalApprovalHandler';

/**
 * POST { tripId, approvedBy } with a function key: raises `Approval` (tests, operators with a key).
 * `signedInApprovers` is read per request (APPROVERS when APPROVAL_REQUIRE_SIGNED_IN is on).
 */
export function registerInternalApproval(signedInApprovers: () => readonly string[] | undefined): void {
  app.http('BreakerApproveInternal', {
    methods: ['POST'],
    authLevel: 'function',
    route: 'internal/breaker/approve',
    extraInputs: [df.input.durableClient()],
    handler: makeInternalApprovalHandler(signedInApprovers),
  });
}
