import escapeHtml from 'escape-html';

import type { EmailMessage } from '../notify/emailSender';
import type { BreakerNotice, NoticeFacts } from './breakerNotice';

/** Renders a notice as an email; the notify templates plug in here through the same shape. */
export type BreakerMessageBuilder = (
  notice: BreakerNotice,
  facts: NoticeFacts,
  to: readonly string[],
) => EmailMessage;

/**
 * A plain builder used until richer templates are wired in: short subject, the facts as lines, the
 * same lines as HTML. It never includes secrets (only the link the approver needs).
 */
export const plainBreakerMessages: BreakerMessageBuilder = (notice, facts, to) => {
  const lines = bodyLines(notice, facts);
  return {
    to,
    subject: `[Breakwater] ${notice.functionName}: ${subjectOf(notice)} (trip ${notice.tripId})`,
    text: lines.join('\n'),
    html: lines.map((l) => `<p>${linkify(l, facts.approvalLink)}</p>`).join('\n'),
  };
};

function subjectOf(notice: BreakerNotice): string {
  switch (notice.kind) {
    case 'tripped':
      return 'circuit breaker tripped, approval needed';
    case 'reminder':
      return `reminder ${notice.reminder} of ${notice.maxReminders}: approval still needed`;
    case 'resumed':
      return 'processing resumed (probation)';
    case 'enable-failed':
      return 'approval received but the trigger could not be re-enabled';
    case 'closed':
      return 'circuit closed';
  }
}

function bodyLines(notice: BreakerNotice, facts: NoticeFacts): string[] {
  const lines = [`Function: ${notice.functionName}`, `Trip: ${notice.tripId}`, `Time: ${notice.at}`];
  if (notice.kind === 'tripped') {
    lines.push(`Failures in window: ${notice.failuresInWindow ?? 'unknown'}`);
    lines.push(
      notice.disable.ok
        ? 'The trigger was disabled.'
        : `The trigger could NOT be disabled (${notice.disable.permanent ? 'permanent' : 'after retries'}): ` +
            `${notice.disable.message}. The open circuit still holds the stream.`,
    );
  }
  if (notice.kind === 'resumed') lines.push(`Approved by: ${notice.approvedBy}`, 'Probation has started.');
  if (notice.kind === 'enable-failed')
    lines.push(`Approved by: ${notice.approvedBy}`, `Enabling failed: ${notice.message}`);
  if (notice.kind === 'tripped' || notice.kind === 'reminder') {
    lines.push(`Dead letters: ${facts.deadLetterCount ?? 'unknown'}`);
    for (const s of facts.sample) lines.push(`Recent error (${s.kind}): ${s.message}`);
    if (facts.approvalLink) lines.push(`Approve the restart: ${facts.approvalLink}`);
  }
  return lines;
}

function linkify(line: string, link: string | undefined): string {
  const escaped = escapeHtml(line);
  if (!link || !line.endsWith(link)) return escaped;
  const href = escapeHtml(link);
  return escaped.slice(0, escaped.length - href.length) + `<a href="${href}">${href}</a>`;
}
