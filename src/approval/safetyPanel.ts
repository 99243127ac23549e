import { describeOldest, formatSpan } from '../hub/describeBacklog';
import type { HeldBacklog } from '../hub/heldBacklog';
import { describeDownstream } from '../sinks/describeDownstream';
import type { DownstreamProbe } from '../sinks/downstreamProbe';
import { formatTime } from '../web/formatting';
import { html, type SafeHtml } from '../web/html';

/** Whether approving needs the explicit "approve anyway": the last probe of the downstream failed. */
export const needsApproveAnyway = (probe: DownstreamProbe | undefined): boolean => probe?.ok === false;

/**
 * "Is approving safe?": downstream health as the app measured it, and what is held in the hub behind
 * the checkpoints (per partition, the oldest age, the time before retention drops it). Shared by the
 * approval page and the dashboard.
 */
export function safetyPanel(
  probe: DownstreamProbe | undefined,
  held: HeldBacklog | undefined,
  now: number,
): SafeHtml {
  const health = probe === undefined ? 'unknown' : probe.ok ? 'ok' : 'error';
  return html`<section
    class="card notice ${health === 'ok' ? 'ok' : health === 'error' ? 'error' : 'warn'}"
    id="safety"
  >
    <h2>Is it safe to restart?</h2>
    <p id="downstream" data-health="${health}"><strong>${describeDownstream(probe)}</strong></p>
    ${heldSection(held, now)}
  </section>`;
}

function heldSection(held: HeldBacklog | undefined, now: number): SafeHtml {
  if (held === undefined)
    return html`<p id="held-unknown" class="muted">Events held: unknown (no hub reader configured).</p>`;
  if (!held.known)
    return html`<p id="held-unknown">Events held: <strong>unknown</strong> — ${held.reason}</p>`;
  const rows = held.partitions.filter((p) => p.held > 0);
  return html`<p id="held-total" data-total="${held.total}">
      Events held in the hub behind the checkpoint: <strong>${held.total.toLocaleString('en-US')}</strong>
      ${rows.length === 0 ? '' : html`in ${rows.length} of ${held.partitions.length} partitions`} —
      <span id="held-oldest">${describeOldest(held, now)}</span>.
    </p>
    ${
      rows.length === 0
        ? ''
        : html`<table id="held" class="stack">
            <thead>
              <tr>
                <th>Partition</th>
                <th>Held</th>
                <th>Oldest</th>
              </tr>
            </thead>
            <tbody>
              ${rows.map(
                (p) =>
                  html`<tr data-partition="${p.partitionId}" data-held="${p.held}">
                    <td>${p.partitionId}</td>
                    <td data-label="Held">${p.held.toLocaleString('en-US')}</td>
                    <td data-label="Oldest">
                      ${
                        p.oldestEnqueuedAt === undefined
                          ? '—'
                          : html`${formatSpan(now - p.oldestEnqueuedAt)} old
                              <small class="muted">(${formatTime(p.oldestEnqueuedAt)})</small>`
                      }
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
    <p class="muted"><small>Read from the hub at ${formatTime(held.at)}.</small></p>`;
}

/** The checkbox a failing last probe makes the approver tick; the POST is refused without it. */
export function approveAnywayField(probe: DownstreamProbe | undefined): SafeHtml {
  if (!needsApproveAnyway(probe)) return html``;
  return html`<p class="notice error">
    <label
      ><input type="checkbox" id="anyway" name="anyway" value="yes" required /> Approve anyway: the downstream
      failed its last health probe, so the restart will probably trip the breaker again.</label
    >
  </p>`;
}
