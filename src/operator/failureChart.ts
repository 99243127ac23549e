import type { WindowBucket } from '../breaker/breakerStore';
import { html, type SafeHtml } from '../web/html';

const W = 600;
const H = 160;
const PAD = { left: 40, right: 8, top: 12, bottom: 26 };

/**
 * Inline SVG bar chart of failures per bucket over the window, with the active threshold drawn as a
 * line for scale (the threshold applies to the window's sum, so the line shows the budget per bucket
 * at an even rate). Scales with the page width through the viewBox.
 */
export function failureChart(
  buckets: readonly WindowBucket[],
  threshold: number,
  bucketSeconds: number,
): SafeHtml {
  const max = Math.max(1, ...buckets.map((b) => b.failures));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const barW = buckets.length === 0 ? 0 : plotW / buckets.length;
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const bars = buckets.map((b, i) => {
    const h = (b.failures / max) * plotH;
    return html`<rect
      x="${(PAD.left + i * barW + 1).toFixed(1)}"
      y="${(PAD.top + plotH - h).toFixed(1)}"
      width="${Math.max(1, barW - 2).toFixed(1)}"
      height="${h.toFixed(1)}"
      fill="#c62828"
      ><title>${new Date(b.start).toISOString().slice(11, 19)}: ${b.failures} failure(s)</title></rect
    >`;
  });
  const perBucket = buckets.length === 0 ? 0 : threshold / buckets.length;
  const seconds = buckets.length * bucketSeconds;
  return html`<svg
    viewBox="0 0 ${W} ${H}"
    role="img"
    aria-label="Failures per ${bucketSeconds} s bucket over the last ${seconds} s"
  >
    <line
      x1="${PAD.left}"
      y1="${PAD.top + plotH}"
      x2="${W - PAD.right}"
      y2="${PAD.top + plotH}"
      stroke="#9aa8b6"
    />
    <text x="${PAD.left - 4}" y="${PAD.top + 8}" font-size="15" text-anchor="end" fill="#5b6b7c">${max}</text>
    <text x="${PAD.left - 4}" y="${PAD.top + plotH}" font-size="15" text-anchor="end" fill="#5b6b7c">0</text>
    ${bars}
    ${
      perBucket <= max
        ? html`<line
            x1="${PAD.left}"
            x2="${W - PAD.right}"
            y1="${y(perBucket).toFixed(1)}"
            y2="${y(perBucket).toFixed(1)}"
            stroke="#ef6c00"
            stroke-dasharray="4 3"
            ><title>even share of the threshold per bucket</title></line
          >`
        : ''
    }
    <text x="${PAD.left}" y="${H - 6}" font-size="15" fill="#5b6b7c">−${seconds} s</text>
    <text x="${W - PAD.right}" y="${H - 6}" font-size="15" text-anchor="end" fill="#5b6b7c">now</text>
  </svg>`;
}
