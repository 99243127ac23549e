import type { HttpResponseInit } from '@azure/functions';

import { formatCount, formatDuration, formatTime } from '../approval/formatting';
import { html, type SafeHtml } from '../approval/html';
import { htmlPage } from '../approval/pageResponse';
import { isReadableTrip, readableTrips, type TripEntry } from '../breaker/breakerStore';
import { failureChart } from './failureChart';
import { partitionTable } from './partitionTable';
import type { OperatorPolicy } from './operatorDeps';
import type { OperatorStatus } from './operatorStatus';
import { tripTimeline } from './tripTimeline';

/** Operators leave the dashboard open during an incident: it reloads itself. */
const REFRESH_SECONDS = 30;

/** One self-contained page: badge, window chart, last-hour timeline, trip history, dead letters. */
export function dashboardPage(s: OperatorStatus, policy: OperatorPolicy): HttpResponseInit {
  const state = s.breaker?.state ?? 'UNKNOWN';
  const body = html`<section class="card">
      <p>
        <span class="badge ${state}" id="state">${state}</span>
        ${s.orchestration?.phase === undefined ? '' : html` <span class="muted">orchestration: <strong id="phase">${s.orchestration.phase}</strong></span>`}
      </p>
      <dl>
        <dt>Function</dt>
        <dd>${s.functionName}</dd>
        <dt>Trip</dt>
        <dd><code>${s.breaker?.tripId ?? '—'}</code></dd>
        <dt>Since</dt>
        <dd>${formatTime(s.breaker?.since)}</dd>
        <dt>Failures in window</dt>
        <dd id="failures">
          ${formatCount(s.failuresInWindow ?? undefined)} /
          ${s.activeThreshold}${state === 'HALF_OPEN' ? ' (probation)' : ''}
        </dd>
        <dt>Trigger</dt>
        <dd>
          ${s.triggerDisabled === null ? 'unknown (local switch)' : s.triggerDisabled ? 'disabled' : 'enabled'}
        </dd>
        <dt>Dead letters queued</dt>
        <dd id="dead-letters">${formatCount(s.deadLetters ?? undefined)}</dd>
        <dt>Store</dt>
        <dd>${s.store.ok ? 'reachable' : html`<strong>unreachable</strong> — ${s.store.error}`}</dd>
      </dl>
      ${
        s.problems.length === 0
          ? ''
          : html`<ul class="muted">
              ${s.problems.map((p) => html`<li>${p}</li>`)}
            </ul>`
      }
    </section>
    <section class="card">
      <h2>Failures per ${policy.bucketSeconds} s, last ${policy.windowSeconds} s</h2>
      ${s.buckets === null ? html`<p class="muted">unavailable</p>` : failureChart(s.buckets, s.activeThreshold, policy.bucketSeconds)}
    </section>
    <section class="card">
      <h2>Partitions on this instance</h2>
      ${partitionTable(s.progress)}
    </section>
    <section class="card">
      <h2>Last hour</h2>
      ${s.trips === null ? html`<p class="muted">unavailable</p>` : tripTimeline(readableTrips(s.trips), s.at)}
      <p>
        <small
          ><span style="color:#c62828">■</span> open <span style="color:#ef6c00">■</span> probation
          <span style="color:#66bb6a">■</span> closed</small
        >
      </p>
    </section>
    <section class="card">
      <h2>Trips</h2>
      ${s.trips === null || s.trips.length === 0 ? html`<p class="muted">No trips recorded.</p>` : tripTable(s.trips, s.at)}
    </section>
    <p class="muted"><small>Read at ${formatTime(s.at)}. Reloads every ${REFRESH_SECONDS} s.</small></p>`;
  return htmlPage(200, 'Breakwater circuit breaker', body, { refreshSeconds: REFRESH_SECONDS });
}

function tripTable(trips: readonly TripEntry[], now: number): SafeHtml {
  return html`<table id="trips" class="stack">
    <thead>
      <tr>
        <th>Opened</th>
        <th>Cause</th>
        <th>Approved by</th>
        <th>Waited</th>
        <th>Duration</th>
      </tr>
    </thead>
    <tbody>
      ${trips.map((t) =>
        !isReadableTrip(t)
          ? html`<tr>
              <td colspan="5">
                unreadable record${t.tripId === undefined ? '' : html` <code>${t.tripId}</code>`}<br /><small
                  >${t.unreadable}</small
                >
              </td>
            </tr>`
          : html`<tr>
              <td>
                ${formatTime(t.openedAt)}<br /><small><code>${t.tripId}</code></small>
              </td>
              <td data-label="Cause">
                ${t.cause}${t.reason === undefined ? '' : html`<br /><small>${t.reason}</small>`}
              </td>
              <td data-label="Approved by">${t.approvedBy ?? '—'}</td>
              <td data-label="Waited for approval">
                ${t.approvedAt === undefined ? '—' : formatDuration(t.approvedAt - t.openedAt)}
              </td>
              <td data-label="Duration">
                ${formatDuration((t.closedAt ?? now) - t.openedAt)}${t.closedAt === undefined ? ' (ongoing)' : ''}
              </td>
            </tr>`,
      )}
    </tbody>
  </table>`;
}
