import { APPROVABLE_PHASES, APPROVED_PHASES, type BreakerPhase } from '../orchestration/breakerStatus';
import type { ApprovalTokenPayload, TokenRejection, TokenVerification } from './approvalTokenTypes';
import type { TripSituation } from './tripSituation';

/** Every reason an approval link does not lead to a restart; each has its own page and status. */
export type ApprovalRefusal =
  | TokenRejection
  | 'other-function'
  | 'stale-trip'
  | 'already-approved'
  | 'circuit-closed'
  | 'not-waiting'
  | 'missing-approver'
  | 'cross-site';

export const refusalStatus: Readonly<Record<ApprovalRefusal, number>> = {
  malformed: 400,
  'bad-signature': 403,
  expired: 410,
  'other-function': 403,
  'stale-trip': 409,
  'already-approved': 409,
  'circuit-closed': 409,
  'not-waiting': 409,
  'missing-approver': 400,
  'cross-site': 403,
};

/** The token's own verdict plus the function check: no I/O needed. */
export function refuseToken(
  verification: TokenVerification,
  functionName: string,
): { refusal: ApprovalRefusal } | { payload: ApprovalTokenPayload } {
  if (!verification.ok) return { refusal: verification.reason };
  if (verification.payload.functionName !== functionName) return { refusal: 'other-function' };
  return { payload: verification.payload };
}

/**
 * Judges a valid token against the live situation. Order matters: a link for an older trip is stale
 * even if that trip was approved; "already approved" wins over "closed" so a second click on the same
 * link is recognisable after probation has closed the circuit.
 */
export function refuseSituation(tripId: string, situation: TripSituation): ApprovalRefusal | undefined {
  const phase = situation.orchestration?.phase;
  // The store knows no trip at all (it lost its data, e.g. Redis restarted without persistence) while
  // this trip's orchestration still waits: the approval is the only way the trigger comes back.
  const storeLostTrip = situation.state.state === 'CLOSED' && situation.state.tripId === undefined;
  if (storeLostTrip && isApprovable(phase) && situation.orchestration?.approvedBy === undefined) {
    return undefined;
  }
  if (situation.state.tripId !== tripId) return 'stale-trip';
  const approved =
    situation.trip?.approvedAt !== undefined ||
    situation.orchestration?.approvedBy !== undefined ||
    (phase !== undefined && APPROVED_PHASES.includes(phase));
  if (approved) return 'already-approved';
  if (situation.state.state === 'CLOSED') return 'circuit-closed';
  if (!isApprovable(phase)) return 'not-waiting';
  return undefined;
}

const isApprovable = (phase: BreakerPhase | undefined): boolean =>
  phase !== undefined && APPROVABLE_PHASES.includes(phase);
