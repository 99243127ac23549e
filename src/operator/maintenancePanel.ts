import type { HttpResponseInit } from '@azure/functions';

import type { Maintenance } from '../maintenance/maintenance';
import { formatDuration, formatTime } from '../web/formatting';
import { html, type SafeHtml } from '../web/html';
import { htmlPage } from '../web/pageResponse';

/**
 * The function key travels in `?code=` (the host reads it there or in a header, never in a form body):
 * the dashboard's form posts to the maintenance route with the key the dashboard was opened with.
 */
function withKey(path: string, requestUrl: string): string {
  const code = new URL(requestUrl).searchParams.get('code');
  return code === null ? path : `${path}?code=${encodeURIComponent(code)}`;
}

/**
 * The dashboard's maintenance card: the maintenance in force (reason, who, since when, how long) with
 * the button that leaves it, or the form that enters it. `undefined`: none; `null`: the record did not read.
 */
export function maintenancePanel(
  maintenance: Maintenance | undefined | null,
  now: number,
  requestUrl: string,
): SafeHtml {
  const action = withKey('maintenance', requestUrl);
  if (maintenance === null)
    return html`<section class="card notice warn" id="maintenance">
      <h2>Maintenance</h2>
      <p>The maintenance record could not be read (see the problems above).</p>
    </section>`;
  if (maintenance === undefined)
    return html`<section class="card" id="maintenance">
      <h2>Maintenance</h2>
      <form method="post" action="${action}">
        <input type="hidden" name="action" value="enter" />
        <label for="reason">Stop consuming on purpose: reason</label>
        <input type="text" id="reason" name="reason" maxlength="500" required />
        <label for="by">Your name</label>
        <input type="text" id="by" name="by" maxlength="100" />
        <button type="submit">Enter maintenance</button>
      </form>
    </section>`;
  return html`<section class="card notice warn" id="maintenance">
    <h2>In maintenance: the trigger is disabled on purpose</h2>
    <dl>
      <dt>Reason</dt>
      <dd id="maintenance-reason">${maintenance.reason}</dd>
      <dt>By</dt>
      <dd id="maintenance-by">${maintenance.by}</dd>
      <dt>Since</dt>
      <dd id="maintenance-since">
        ${formatTime(maintenance.since)} (${formatDuration(now - maintenance.since)})
      </dd>
    </dl>
    <form method="post" action="${action}">
      <input type="hidden" name="action" value="leave" />
      <label for="leave-by">Your name</label>
      <input type="text" id="leave-by" name="by" maxlength="100" />
      <button type="submit">Leave maintenance and resume</button>
    </form>
  </section>`;
}

/** What the dashboard's form gets back: the outcome in words, and the way back to the dashboard. */
export function maintenanceAnswerPage(
  status: number,
  body: Record<string, unknown>,
  requestUrl: string,
): HttpResponseInit {
  const ok = status < 300;
  const said = [body.error, body.note].filter((s): s is string => typeof s === 'string');
  const headline =
    body.action === 'entered'
      ? 'Maintenance entered: the trigger is disabled'
      : body.action === 'left'
        ? body.triggerEnabled === true
          ? 'Maintenance left: the trigger is enabled again'
          : 'Maintenance left: the trigger stays disabled'
        : 'Nothing was changed';
  const issues = Array.isArray(body.issues)
    ? body.issues.map((i) => {
        const { path, message } = i as { path?: unknown; message?: unknown };
        return `${String(path)}: ${String(message)}`;
      })
    : [];
  return htmlPage(
    status,
    'Maintenance',
    html`<section class="card notice ${ok ? 'ok' : 'error'}">
      <p><strong id="outcome">${headline}</strong></p>
      ${[...said, ...issues].map((s) => html`<p>${s}</p>`)}
      <p><a href="${withKey('dashboard', requestUrl)}">Back to the dashboard</a></p>
    </section>`,
  );
}
