import type { TripRecord } from '../breaker/breakerStore';
import { html, type SafeHtml } from '../web/html';

const W = 600;
const H = 76;
const HOUR_MS = 3_600_000;

/**
 * The last hour as a timeline: when the circuit was open (red), on probation (amber), or closed.
 * Sourced from the trip history, because the store keeps failure buckets only for the window; a
 * per-minute failure count for the hour would need the store to keep coarser buckets for longer.
 */
export function tripTimeline(trips: readonly TripRecord[], now: number): SafeHtml {
  const from = now - HOUR_MS;
  const x = (t: number) => 4 + ((Math.min(Math.max(t, from), now) - from) / HOUR_MS) * (W - 8);
  const segments = trips
    .filter((t) => (t.closedAt ?? now) >= from)
    .flatMap((t) => {
      const resumed = t.resumedAt ?? t.approvedAt;
      const openEnd = resumed ?? t.closedAt ?? now;
      const parts = [
        html`<rect
          x="${x(t.openedAt).toFixed(1)}"
          y="14"
          width="${Math.max(2, x(openEnd) - x(t.openedAt)).toFixed(1)}"
          height="26"
          fill="#c62828"
          ><title>trip ${t.tripId}: open</title></rect
        >`,
      ];
      if (resumed !== undefined) {
        const end = t.closedAt ?? now;
        parts.push(
          html`<rect
            x="${x(resumed).toFixed(1)}"
            y="14"
            width="${Math.max(2, x(end) - x(resumed)).toFixed(1)}"
            height="26"
            fill="#ef6c00"
            ><title>trip ${t.tripId}: probation</title></rect
          >`,
        );
      }
      return parts;
    });
  return html`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Breaker state over the last hour">
    <rect x="4" y="14" width="${W - 8}" height="26" fill="#e8f5e9" />
    ${segments}
    <text x="4" y="${H - 8}" font-size="15" fill="#5b6b7c">−60 min</text>
    <text x="${W / 2}" y="${H - 8}" font-size="15" text-anchor="middle" fill="#5b6b7c">−30 min</text>
    <text x="${W - 4}" y="${H - 8}" font-size="15" text-anchor="end" fill="#5b6b7c">now</text>
  </svg>`;
}
