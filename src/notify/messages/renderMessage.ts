import escapeHtml from 'escape-html';

import type { EmailMessage } from '../emailSender';
import type { Block, MessageDocument } from './messageDocument';

/**
 * Every interpolated value passes through here: HTML parts escape with escape-html (the small,
 * dependency-free escaper Express uses; it covers & < > " ' so values are safe in text and in
 * double-quoted attributes), and subjects lose line breaks so no header can be injected.
 */
export function renderMessage(doc: MessageDocument): EmailMessage {
  return {
    to: doc.to,
    subject: oneLine(doc.subject),
    text: [doc.title, '', ...doc.blocks.flatMap(toText)].join('\n').trimEnd() + '\n',
    html:
      '<!doctype html><html><body style="font-family:Segoe UI,Arial,sans-serif;font-size:14px;color:#1b1b1b">' +
      `<h2 style="margin:0 0 12px">${escapeHtml(doc.title)}</h2>` +
      doc.blocks.map(toHtml).join('') +
      '</body></html>',
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

function toHtml(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p>${escapeHtml(block.text)}</p>`;
    case 'facts':
      return (
        '<table style="border-collapse:collapse;margin:8px 0">' +
        block.rows
          .map(
            ([label, value]) =>
              `<tr><th style="text-align:left;padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
          )
          .join('') +
        '</table>'
      );
    case 'list':
      return (
        `<p><strong>${escapeHtml(block.heading)}</strong></p>` +
        (block.items.length > 0
          ? `<ul>${block.items.map((i) => `<li><code>${escapeHtml(i)}</code></li>`).join('')}</ul>`
          : '<p>(none)</p>')
      );
    case 'link':
      return (
        `<p><a href="${escapeHtml(safeHref(block.url))}" style="font-weight:bold">${escapeHtml(block.label)}</a></p>` +
        `<p style="color:#555">${escapeHtml(block.note)}<br>${escapeHtml(block.url)}</p>`
      );
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
