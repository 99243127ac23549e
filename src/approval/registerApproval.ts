import { app } from '@azure/functions';

import { durableClientInput } from '../orchestration/durableOrchestrationControl';
import { type ApprovalHandlerDeps, makeApprovalHandler } from './approvalHandler';
import { APPROVAL_ROUTE } from './approvalLink';

export const APPROVAL_FUNCTION = 'Approve';

/**
 * Registers `GET|POST /api/approve`. Anonymous on purpose: the signed, expiring, single-trip token is
 * the credential, so the emailed link carries no function key (which would never expire).
 */
export function registerApproval(deps: ApprovalHandlerDeps): void {
  app.http(APPROVAL_FUNCTION, {
    route: APPROVAL_ROUTE,
    methods: ['GET', 'POST'],
    authLevel: 'anonymous',
    extraInputs: [durableClientInput],
    handler: makeApprovalHandler(deps),
  });
}
