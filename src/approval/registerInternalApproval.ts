import { app } from '@azure/functions';
import * as df from 'durable-functions';

import { makeInternalApprovalHandler } from './internalApprovalHandler';

/** POST { tripId, approvedBy } with a function key: raises `Approval` (tests, operators with a key). */
export function registerInternalApproval(): void {
  app.http('BreakerApproveInternal', {
    methods: ['POST'],
    authLevel: 'function',
    route: 'internal/breaker/approve',
    extraInputs: [df.input.durableClient()],
    handler: makeInternalApprovalHandler(),
  });
}
