import type { HttpResponseInit } from '@azure/functions';

import { safetyPanel } from '../approval/safetyPanel';
import { isReadableTrip, readableTrips, type TripEntry, type TripRecord } from '../breaker/breakerStore';
import { describeBacklog } from '../hub/describeBacklog';
import { formatCount, formatDuration, formatTime } from '../web/formatting';
import { html, type SafeHtml } from '../web/html';
import { htmlPage } from '../web/pageResponse';
import { failureChart } from './failureChart';
import { groupIncidents } from './incidents';
import { maintenancePanel } from './maintenancePanel';
import type { OperatorPolicy } from './operatorDeps';
import type { OperatorStatus } from './operatorStatus';
import { partitionTable } from './partitionTable';
import { tripTimeline } from './tripTimeline';

/** Operators leave the dashboard open during an incident: it reloads itself. */
const REFRESH_SECONDS = 30;

/** One self-contained page: badge, window chart, last-hour timeline, trip history, dead letters. */
export function dashboardPage(
  s: OperatorStatus,
  policy: OperatorPolicy,
  requestUrl: string,
): HttpResponseInit {
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
          ${s.triggerDisabled === null ? 'unknown (local switch)' : s.triggerDisabled ? 'disabled' : 'enabled'}${s.maintenance ? ' (maintenance)' : ''}
        </dd>
        <dt>Dead letters queued</dt>
        <dd id="dead-letters">${formatCount(s.deadLetters ?? undefined)}</dd>
        <dt>Store</dt>
        <dd>${s.store.ok ? 'reachable' : html`<strong>unreachable</strong> — ${s.store.error}`}</dd>
        <dt>Held in the hub</dt>
        <dd id="backlog">${describeBacklog(s.held ?? undefined, s.at)}</dd>
      </dl>
      ${
        s.problems.length === 0
          ? ''
          : html`<ul class="muted">
              ${s.problems.map((p) => html`<li>${p}</li>`)}
            </ul>`
      }
    </section>
    ${maintenancePanel(s.maintenance, s.at, requestUrl)}
    ${state === 'OPEN' ? safetyPanel(s.currentTrip?.probe, s.held ?? undefined, s.at) : ''}
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
      <h2>Incidents</h2>
      ${s.trips === null || s.trips.length === 0 ? html`<p class="muted">No trips recorded.</p>` : incidentTable(s.trips, s.at)}
    </section>
    <p class="muted"><small>Read at ${formatTime(s.at)}. Reloads every ${REFRESH_SECONDS} s.</small></p>`;
  return htmlPage(200, 'Breakwater circuit breaker', body, { refreshSeconds: REFRESH_SECONDS });
}

/**
 * One row per incident: a probation re-trip continues the incident it came from. Records that do not
 * parse get a row of their own, marked unreadable.
 */
function incidentTable(entries: readonly TripEntry[], now: number): SafeHtml {
  const trips = readableTrips(entries);
  const unreadable = entries.filter((t) => !isReadableTrip(t));
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
      ${groupIncidents(trips).map((incident) => {
        const first = incident.trips[0] as TripRecord;
        const retrips = incident.trips.length - 1;
        const approvers = [
          ...new Set(incident.trips.flatMap((t) => (t.approvedBy === undefined ? [] : [t.approvedBy]))),
        ];
        return html`<tr data-trips="${incident.trips.length}">
          <td>
            ${formatTime(incident.openedAt)}<br /><small><code>${first.tripId}</code></small>
          </td>
          <td data-label="Cause">
            ${first.cause}${first.reason === undefined ? '' : html`<br /><small>${first.reason}</small>`}
            ${retrips === 0 ? '' : html`<br /><small>re-tripped in probation ×${retrips}</small>`}
          </td>
          <td data-label="Approved by">${approvers.length === 0 ? '—' : approvers.join(', ')}</td>
          <td data-label="Waited for approval">
            ${first.approvedAt === undefined ? '—' : formatDuration(first.approvedAt - first.openedAt)}
          </td>
          <td data-label="Duration">
            ${formatDuration((incident.closedAt ?? now) - incident.openedAt)}${incident.closedAt === undefined ? ' (ongoing)' : ''}
          </td>
        </tr>`;
      })}
      ${unreadable.map(
        (t) =>
          html`<tr>
            <td colspan="5">
              unreadable record${t.tripId === undefined ? '' : html` <code>${t.tripId}</code>`}<br /><small
                >${'unreadable' in t ? t.unreadable : ''}</small
              >
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
