import type { ProgressSnapshot } from '../processing/partitionProgress';
import { formatTime } from '../web/formatting';
import { html, type SafeHtml } from '../web/html';

/**
 * Held batches and re-runs per partition, as the instance serving the page sees them. A
 * stuck partition (held over and over for a reason that is not an outage) is marked.
 */
export function partitionTable(p: ProgressSnapshot | null): SafeHtml {
  if (p === null) return html`<p class="muted">No processing on this instance.</p>`;
  const summary = html`<p id="held-batches">
      ${p.heldBatches} held batch(es), ${p.stuckPartitions} stuck partition(s)
      <span class="muted">(${p.stuckEpisodes} time(s) stuck since this instance started)</span>
    </p>
    ${deadLetteredLine(p)}`;
  if (p.partitions.length === 0)
    return html`${summary}
      <p class="muted">No batches seen yet.</p>`;
  return html`${summary}
    <table id="partitions" class="stack">
      <thead>
        <tr>
          <th>Partition</th>
          <th>Batch</th>
          <th>Re-run</th>
          <th>Held since</th>
          <th>Held runs (most re-runs)</th>
        </tr>
      </thead>
      <tbody>
        ${p.partitions.map(
          (v) =>
            html`<tr>
              <td>${v.partitionId}</td>
              <td data-label="Batch">
                ${
                  v.held
                    ? html`<strong>${v.stuck ? 'STUCK' : 'held'}</strong> (${v.reason ?? '?'}) from sequence
                        ${v.firstSequence ?? '?'}`
                    : 'moving'
                }
              </td>
              <td data-label="Re-run">${v.held ? v.rerun : '—'}</td>
              <td data-label="Held since">${v.held ? formatTime(v.heldSince) : '—'}</td>
              <td data-label="Held runs">${v.heldRuns} (${v.maxRerun})</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}

/** Dead letters this instance stored, per reason; `future-timestamp` means a gateway's clock is fast. */
function deadLetteredLine(p: ProgressSnapshot): SafeHtml {
  const counts = Object.entries(p.deadLettered).filter(([, n]) => n > 0);
  return html`<p id="dead-lettered-by-reason">
    Dead-lettered since this instance started:
    ${counts.length === 0 ? 'none' : counts.map(([reason, n], i) => html`${i > 0 ? ', ' : ''}${reason} ${n}`)}
    ${p.deadLettered['future-timestamp'] > 0 ? html` <strong>(readings dated ahead of their event: check the gateways' clocks)</strong>` : ''}
  </p>`;
}
