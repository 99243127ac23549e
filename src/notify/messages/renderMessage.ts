import { html, raw, type SafeHtml } from '../../web/html';
import type { EmailMessage } from './emailMessage';
import type { Block, MessageDocument } from './messageDocument';

/**
 * Every interpolated value passes through here: the HTML part is built with the `html` tag that the
 * pages use too (it escapes & < > " ' in every value, so values are safe in text and in double-quoted
 * attributes), and subjects lose line breaks so no header can be injected.
 */
const BODY_STYLE = 'font-family:Segoe UI,Arial,sans-serif;font-size:14px;color:#1b1b1b';

export function renderMessage(doc: MessageDocument): EmailMessage {
  return {
    to: doc.to,
    subject: oneLine(doc.subject),
    text: [doc.title, '', ...doc.blocks.flatMap(toText)].join('\n').trimEnd() + '\n',
    html: html`${raw('<!doctype html>')}
      <html>
        <body style="${BODY_STYLE}">
          <h2 style="margin:0 0 12px">${doc.title}</h2>
          ${doc.blocks.map(toHtml)}
        </body>
      </html>`.toString(),
  };
}

function toText(block: Block): string[] {
  switch (block.kind) {
    case 'paragraph':
      return [block.text, ''];
    case 'facts': {
      const width = Math.max(...block.rows.map(([label]) => label.length));
      return [...block.rows.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`), ''];
    }
    case 'list':
      return [
        block.heading,
        ...(block.items.length > 0 ? block.items.map((i) => `  - ${i}`) : ['  (none)']),
        '',
      ];
    case 'link':
      return [`${block.label}:`, block.url, block.note, ''];
  }
}

function toHtml(block: Block): SafeHtml {
  switch (block.kind) {
    case 'paragraph':
      return html`<p>${block.text}</p>`;
    case 'facts':
      return html`<table style="border-collapse:collapse;margin:8px 0">
        ${block.rows.map(
          ([label, value]) =>
            html`<tr>
              <th style="text-align:left;padding:2px 12px 2px 0">${label}</th>
              <td>${value}</td>
            </tr>`,
        )}
      </table>`;
    case 'list':
      return html`<p><strong>${block.heading}</strong></p>
        ${
          block.items.length > 0
            ? html`<ul>
                ${block.items.map((i) => html`<li><code>${i}</code></li>`)}
              </ul>`
            : html`<p>(none)</p>`
        }`;
    case 'link':
      return html`<p><a href="${safeHref(block.url)}" style="font-weight:bold">${block.label}</a></p>
        <p style="color:#555">${block.note}<br />${block.url}</p>`;
  }
}

/** Only http(s) links become clickable; anything else (javascript:, data:) is refused outright. */
function safeHref(url: string): string {
  const protocol = URL.canParse(url) ? new URL(url).protocol : '';
  if (protocol !== 'https:' && protocol !== 'http:')
    throw new Error(`refusing to put a non-http(s) link in an email`);
  return url;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}
