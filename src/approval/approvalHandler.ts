import type { HttpHandler, HttpRequest, InvocationContext } from '@azure/functions';

import type { BreakerStore } from '../breaker/breakerStore';
import type { HeldBacklog } from '../hub/heldBacklog';
import { emitEvent } from '../kernel/appEvent';
import type { Clock } from '../kernel/clock';
import { ensureError } from '../kernel/ensureError';
import type { OrchestrationControlFactory } from '../orchestration/orchestrationControl';
import { withEnvironment } from '../web/environmentBanner';
import {
  approvedPage,
  confirmationPage,
  type ProbationTerms,
  refusalPage,
  unavailablePage,
} from './approvalPages';
import { refuseSituation, refuseToken } from './approvalRefusal';
import type { TokenVerification } from './approvalTokenTypes';
import { PRINCIPAL_HEADER, readApprover } from './approverName';
import { needsApproveAnyway } from './safetyPanel';
import { checkSignedInApprover } from './signedInApprover';
import { signedInRefusalPage } from './signedInPages';
import { readTripSituation, type SituationStore, type TripSituation } from './tripSituation';

export interface ApprovalHandlerDeps {
  readonly functionName: string;
  readonly clock: Clock;
  /** Verifies a token with the configured keys (current and previous). */
  readonly verifyToken: (token: string, now: number) => TokenVerification;
  readonly store: SituationStore & Pick<BreakerStore, 'updateTrip'>;
  readonly deadLetterCount: () => Promise<number | undefined>;
  readonly orchestration: OrchestrationControlFactory;
  /** APPROVAL_REQUIRE_SIGNED_IN: the approvers a signed-in principal must be one of; undefined when off. */
  readonly signedInApprovers?: readonly string[];
  /** What the hub holds behind the checkpoints (peek the oldest while OPEN); never throws. */
  readonly heldBacklog?: (peekOldest: boolean) => Promise<HeldBacklog>;
  readonly probation?: ProbationTerms;
  /** Shown on every page: which deployment this is. */
  readonly environmentName?: string;
}

/** A form post is a few hundred bytes; anything far larger is not from our page. */
const MAX_FORM_BYTES = 16 * 1024;

/**
 * `GET /api/approve?token=…` shows the confirmation page and changes nothing (mail scanners and link
 * previewers follow GET links). `POST` from that page re-checks everything and raises `Approval`.
 *
 * CSRF: the page uses no cookie or other ambient credential; the POST must carry the signed token,
 * which is the credential itself, bound to one function and one trip, expiring, and only honoured
 * while that trip's orchestration waits. A forged cross-site POST therefore needs the token, and with
 * it could simply approve. The one ambient input is the App Service Authentication principal (its
 * session cookie): so that a stolen link cannot be approved in a victim's name from another site,
 * browser POSTs marked cross-site by Sec-Fetch-Site are refused.
 */
export function makeApprovalHandler(deps: ApprovalHandlerDeps): HttpHandler {
  return withEnvironment(deps.environmentName, async (request: HttpRequest, context: InvocationContext) => {
    const isPost = request.method === 'POST';
    if (isPost && isCrossSite(request)) return refusalPage('cross-site');
    const form = isPost ? await readForm(request) : undefined;
    if (isPost && form === undefined) return refusalPage('malformed');
    const token = (form ?? request.query).get('token');
    if (token === null || token === '') return refusalPage('malformed');

    const now = deps.clock.now();
    const checked = refuseToken(deps.verifyToken(token, now), deps.functionName);
    if ('refusal' in checked) return refusalPage(checked.refusal);
    const { payload } = checked;

    const orchestration = deps.orchestration(context);
    let situation: TripSituation;
    try {
      situation = await readTripSituation(payload.tripId, now, { ...deps, orchestration });
    } catch (error) {
      context.error(`approval page: breaker state unavailable: ${ensureError(error).message}`);
      return unavailablePage();
    }
    const refusal = refuseSituation(payload.tripId, situation);
    if (refusal !== undefined) return refusalPage(refusal, { payload, situation });

    const signedIn = deps.signedInApprovers && checkSignedInApprover(request.headers, deps.signedInApprovers);
    if (signedIn && !signedIn.ok)
      return signedInRefusalPage(signedIn.refusal, {
        token,
        ...(signedIn.refusal === 'not-an-approver' ? { principal: signedIn.principal } : {}),
      });

    const principal = request.headers.get(PRINCIPAL_HEADER)?.trim() || undefined;
    const page = async (problem?: string) => {
      const held = await deps.heldBacklog?.(situation.state.state === 'OPEN');
      return confirmationPage({
        payload,
        situation,
        token,
        principal,
        held,
        now,
        ...(problem ? { problem } : {}),
      });
    };
    if (!isPost) return page();

    const approver = signedIn
      ? ({ ok: true, approver: signedIn.approver, source: 'principal' } as const)
      : readApprover(request.headers, form?.get('approver') ?? null);
    if (!approver.ok) return page(approver.problem);
    // The downstream failed its last probe: restarting now would most likely trip again at once.
    if (needsApproveAnyway(situation.trip?.probe) && form?.get('anyway') !== 'yes')
      return page(
        'The downstream failed its last health probe. Tick "Approve anyway" to restart regardless.',
      );

    let raised: Awaited<ReturnType<typeof orchestration.raiseApproval>>;
    try {
      raised = await orchestration.raiseApproval(payload.tripId, approver.approver);
    } catch (error) {
      context.error(`approval for trip ${payload.tripId} could not be raised: ${ensureError(error).message}`);
      return unavailablePage();
    }
    if (!raised.ok) return refusalPage(raised.refusal, { payload, situation });
    context.log(
      `trip ${payload.tripId} approved by ${JSON.stringify(approver.approver)} (${approver.source})`,
    );
    emitEvent(context, 'log', 'tripApproved', {
      tripId: payload.tripId,
      approvedBy: approver.approver,
      source: approver.source,
    });
    // Recorded after the event is raised: a failed raise must never leave an "approved" record behind.
    // Recording here (too) makes a second click read "already approved" before the orchestration runs.
    await deps.store
      .updateTrip(payload.tripId, { approvedAt: now, approvedBy: approver.approver })
      .catch((error: unknown) => {
        context.warn(
          `approval raised, but not recorded on trip ${payload.tripId}: ${ensureError(error).message}`,
        );
      });
    return approvedPage(payload, approver.approver, deps.probation);
  });
}

function isCrossSite(request: HttpRequest): boolean {
  const site = request.headers.get('sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}

async function readForm(request: HttpRequest): Promise<URLSearchParams | undefined> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return undefined;
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_FORM_BYTES) return undefined;
  return new URLSearchParams(text);
}
