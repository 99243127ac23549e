import type { HttpResponseInit } from '@azure/functions';

import { formatSpan } from '../hub/describeBacklog';
import type { HeldBacklog } from '../hub/heldBacklog';
import { formatCount, formatTime } from '../web/formatting';
import { html, type SafeHtml } from '../web/html';
import { htmlPage } from '../web/pageResponse';
import type { ApprovalRefusal } from './approvalRefusal';
import { refusalStatus } from './approvalRefusal';
import type { ApprovalTokenPayload } from './approvalTokenTypes';
import { approveAnywayField, needsApproveAnyway, safetyPanel } from './safetyPanel';
import type { TripSituation } from './tripSituation';

export interface ConfirmationArgs {
  readonly payload: ApprovalTokenPayload;
  readonly situation: TripSituation;
  readonly token: string;
  /** Signed-in principal (App Service Authentication): no name field then. */
  readonly principal: string | undefined;
  /** Shown above the form when a POST lacked something (400). */
  readonly problem?: string;
  /** What the hub holds behind the checkpoints; undefined when no reader is configured. */
  readonly held?: HeldBacklog;
  readonly now?: number;
}

/** The GET page: what tripped and the "Approve restart" form. Rendering it changes nothing. */
export function confirmationPage(args: ConfirmationArgs): HttpResponseInit {
  const { payload, situation, token, principal, problem } = args;
  const probe = situation.trip?.probe;
  const anyway = needsApproveAnyway(probe);
  const who =
    principal === undefined
      ? html`<label for="approver">Your name (for the audit record)</label>
          <input type="text" id="approver" name="approver" maxlength="100" required autocomplete="name" />`
      : html`<p>Approving as <strong>${principal}</strong> (signed in).</p>`;
  const body = html`${problem === undefined ? '' : html`<p class="card notice error" role="alert">${problem}</p>`}
    <section class="card notice warn">
      <p>
        The circuit breaker stopped <strong>${payload.functionName}</strong>. Approving re-enables the
        trigger: processing resumes from the last checkpoint, under a probation threshold.
      </p>
    </section>
    ${safetyPanel(probe, args.held, args.now ?? Date.now())} ${tripDetails(payload, situation)}
    <form class="card" method="post" action="approve">
      <input type="hidden" name="token" value="${token}" />
      ${who} ${approveAnywayField(probe)}
      <button type="submit" id="approve">${anyway ? 'Approve anyway' : 'Approve restart'}</button>
    </form>`;
  return htmlPage(problem === undefined ? 200 : 400, 'Approve restart?', body);
}

/** The probation the restart runs under, for "what happens next". */
export interface ProbationTerms {
  readonly seconds: number;
  readonly threshold: number;
}

export function approvedPage(
  payload: ApprovalTokenPayload,
  approver: string,
  probation?: ProbationTerms,
): HttpResponseInit {
  const quiet =
    probation === undefined
      ? 'after a quiet probation'
      : `after ${formatSpan(probation.seconds * 1000)} of probation with no more than ${probation.threshold} failures in the window`;
  return htmlPage(
    200,
    'Restart approved',
    html`<section class="card notice ok">
        <p>
          Thank you, <strong>${approver}</strong>. The breaker orchestration received your approval for trip
          <code>${payload.tripId}</code>.
        </p>
      </section>
      <section class="card" id="next">
        <h2>What happens next</h2>
        <ol>
          <li>The breaker moves to HALF_OPEN and its failure window is emptied.</li>
          <li>
            <strong>${payload.functionName}</strong> is re-enabled; the Functions host restarts its listener
            and processing resumes from the last checkpoint, in order (usually within a minute or two).
          </li>
          <li>A "resumed" email goes to the approvers.</li>
          <li>
            The breaker closes ${quiet}. More failures than that trip it again and a new approval email is
            sent.
          </li>
        </ol>
        <p>
          Follow it on the <a id="dashboard-link" href="breaker/dashboard">breaker dashboard</a>
          <small class="muted">(needs the app's function key: add <code>?code=&lt;key&gt;</code>)</small>.
        </p>
        <p class="muted">
          You may close this page. Opening the link again shows that it was already approved.
        </p>
      </section>`,
  );
}

const refusalText: Readonly<Record<ApprovalRefusal, { title: string; text: string }>> = {
  malformed: {
    title: 'Invalid link',
    text: 'This approval link is incomplete or damaged. Open the link from the email again, or copy it whole.',
  },
  'bad-signature': {
    title: 'Link not recognised',
    text: 'This link was not signed by Breakwater (or the signing key was rotated twice since). Nothing was changed.',
  },
  expired: {
    title: 'Link expired',
    text: 'This approval link has expired. A reminder email carries a fresh link; nothing was changed.',
  },
  'other-function': {
    title: 'Link for another function',
    text: 'This link approves a different function than the one this app guards. Nothing was changed.',
  },
  'stale-trip': {
    title: 'Link for an older trip',
    text: 'The breaker has tripped again since this link was sent. Use the link from the newest email. Nothing was changed.',
  },
  'already-approved': {
    title: 'Already approved',
    text: 'This trip was already approved; the restart is under way or done. Nothing was changed.',
  },
  'circuit-closed': {
    title: 'Circuit already closed',
    text: 'The circuit is closed: processing is running and there is nothing to approve. Nothing was changed.',
  },
  'not-waiting': {
    title: 'Not waiting for approval yet',
    text: 'The breaker orchestration for this trip is not waiting for an approval right now (it may still be disabling the trigger, or be restarted by the watchdog). Try the link again in a few minutes. Nothing was changed.',
  },
  'missing-approver': {
    title: 'Name required',
    text: 'Please type your name: it goes into the audit record. Nothing was changed.',
  },
  'cross-site': {
    title: 'Request refused',
    text: 'This approval was submitted from another site. Open the link from the email and approve on this page. Nothing was changed.',
  },
};

/** One clear page per refusal, with its HTTP status; optional live details of the trip. */
export function refusalPage(
  refusal: ApprovalRefusal,
  details?: { payload: ApprovalTokenPayload; situation: TripSituation },
): HttpResponseInit {
  const { title, text } = refusalText[refusal];
  const approvedBy = details?.situation.trip?.approvedBy;
  const body = html`<section
      class="card notice ${refusal === 'already-approved' ? 'ok' : 'error'}"
      data-refusal="${refusal}"
    >
      <p>${text}</p>
      ${
        refusal === 'already-approved' && approvedBy !== undefined
          ? html`<p>
              Approved by <strong>${approvedBy}</strong> at
              ${formatTime(details?.situation.trip?.approvedAt)}.
            </p>`
          : ''
      }
    </section>
    ${details === undefined ? '' : tripDetails(details.payload, details.situation)}`;
  return htmlPage(refusalStatus[refusal], title, body);
}

/** The store could not be read: say so, change nothing, let the operator retry. */
export function unavailablePage(): HttpResponseInit {
  const page = htmlPage(
    503,
    'Breaker state unavailable',
    html`<section class="card notice error">
      <p>
        The breaker state could not be read just now, so nothing was changed. Please try the link again in a
        minute.
      </p>
    </section>`,
  );
  return { ...page, headers: { ...(page.headers as Record<string, string>), 'Retry-After': '60' } };
}

function tripDetails(payload: ApprovalTokenPayload, s: TripSituation): SafeHtml {
  const trip = s.trip;
  const samples = trip?.sample.slice(-5) ?? [];
  return html`<section class="card">
    <dl>
      <dt>Function</dt>
      <dd>${payload.functionName}</dd>
      <dt>Trip</dt>
      <dd><code>${payload.tripId}</code></dd>
      <dt>Cause</dt>
      <dd>${trip?.cause ?? 'unknown'}${trip?.reason === undefined ? '' : html` — ${trip.reason}`}</dd>
      <dt>Tripped at</dt>
      <dd>${formatTime(trip?.openedAt)}</dd>
      <dt>Failures at trip</dt>
      <dd>${formatCount(trip?.failuresInWindow)}</dd>
      <dt>Failures in window now</dt>
      <dd>
        ${s.failuresInWindow}${
          s.state.state === 'OPEN'
            ? html` <small class="muted"
                >(nothing is attempted while OPEN: see the downstream probe above)</small
              >`
            : ''
        }
      </dd>
      <dt>Dead letters queued</dt>
      <dd>${formatCount(s.deadLetters)}</dd>
      <dt>Breaker state</dt>
      <dd><span class="badge ${s.state.state}">${s.state.state}</span></dd>
      <dt>Orchestration</dt>
      <dd>${s.orchestration?.phase ?? s.orchestration?.runtimeStatus ?? 'not found'}</dd>
      <dt>Link expires</dt>
      <dd>${formatTime(payload.expiresAt)}</dd>
    </dl>
    ${
      samples.length === 0
        ? ''
        : html`<p><small>Recent errors:</small></p>
            <ul>
              ${samples.map(
                (f) =>
                  html`<li>
                    <small><code>${f.eventKey}</code> (${f.kind}): ${f.message}</small>
                  </li>`,
              )}
            </ul>`
    }
  </section>`;
}
