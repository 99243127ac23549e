import type { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';

import { signedInForApi } from '../approval/signedInApprover';
import { ensureError } from '../kernel/ensureError';
import type { Maintenance } from '../maintenance/maintenance';
import { badRequest, json } from '../web/jsonResponse';
import { maintenanceAnswerPage } from './maintenancePanel';
import type { OperatorDeps } from './operatorDeps';
import { maintenanceBodySchema } from './requestSchemas';

const MAX_BODY_BYTES = 16 * 1024;
const HISTORY_LIMIT = 10;

/** One answer of the route, JSON for the API and a small page for the dashboard's form. */
interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/**
 * `/api/breaker/maintenance`: stop consuming on purpose, and start again. `GET` reads the maintenance in
 * force and the recent ones. `POST {action: "enter", reason, by?}` records it (reason, who, since when),
 * then disables the trigger through the breaker's switch; `POST {action: "leave", by?}` ends it and
 * enables the trigger, unless the breaker is OPEN: that trip's approval enables it. While in
 * maintenance the watchdog neither re-enables the trigger nor reports it disabled, and the breaker's own
 * approval leaves it off; a trip still opens, starts its orchestration and emails the approvers. Both
 * changes are refused with nothing changed when they make no sense (entering twice, leaving when not
 * in), and, with APPROVAL_REQUIRE_SIGNED_IN, need a signed-in approver as a reset does. The dashboard's
 * form posts `application/x-www-form-urlencoded` and gets a page back.
 */
export function makeMaintenanceHandler(deps: OperatorDeps): HttpHandler {
  return async (request, context) => {
    const form = isForm(request);
    const answer = await handle(deps, request, context, form);
    return form
      ? maintenanceAnswerPage(answer.status, answer.body, request.url)
      : json(answer.status, answer.body);
  };
}

async function handle(
  deps: OperatorDeps,
  request: HttpRequest,
  context: InvocationContext,
  form: boolean,
): Promise<Answer> {
  if (request.method === 'GET') return read(deps);
  if (request.method !== 'POST')
    return { status: 405, body: { error: `method ${request.method} is not allowed: use GET or POST` } };
  const body = await readBody(request, form);
  if (!body.ok) return body.answer;
  const signedIn = signedInForApi(request.headers, deps.signedInApprovers);
  if (!signedIn.ok) return { status: signedIn.status, body: { error: signedIn.error } };
  const by = signedIn.approver ?? body.value.by ?? 'operator API';
  return body.value.action === 'enter'
    ? enterMaintenance(deps, context, { reason: body.value.reason, by, since: deps.clock.now() })
    : leaveMaintenance(deps, context, by);
}

async function read(deps: OperatorDeps): Promise<Answer> {
  try {
    const [current, history] = await Promise.all([
      deps.maintenance.current(),
      deps.maintenance.history(HISTORY_LIMIT),
    ]);
    return {
      status: 200,
      body: { maintenance: current ? view(current) : null, ended: history.map(endedView) },
    };
  } catch (error) {
    return { status: 503, body: { error: `maintenance record unavailable: ${ensureError(error).message}` } };
  }
}

async function enterMaintenance(
  deps: OperatorDeps,
  context: InvocationContext,
  m: Maintenance,
): Promise<Answer> {
  let result;
  try {
    result = await deps.maintenance.enter(m);
  } catch (error) {
    context.error(`maintenance: record unavailable: ${ensureError(error).message}`);
    return { status: 503, body: { error: 'maintenance record unavailable; nothing was changed' } };
  }
  if (!result.entered)
    return {
      status: 409,
      body: { error: 'already in maintenance; nothing was changed', maintenance: view(result.current) },
    };
  const entered = (await deps.maintenance.current().catch(() => undefined)) ?? m;
  context.warn(`maintenance: ENTERED by ${entered.by}: ${entered.reason}; the trigger is being disabled`);
  try {
    await deps.triggerSwitch.setDisabled(deps.functionName, true);
  } catch (error) {
    return {
      status: 502,
      body: {
        action: 'entered',
        maintenance: view(entered),
        error:
          `maintenance is recorded, but the trigger could not be disabled: ${ensureError(error).message}; ` +
          'the watchdog disables it on its next tick',
      },
    };
  }
  return { status: 200, body: { action: 'entered', maintenance: view(entered), triggerDisabled: true } };
}

async function leaveMaintenance(deps: OperatorDeps, context: InvocationContext, by: string): Promise<Answer> {
  let ended;
  try {
    // The breaker first: with its state unknown, the trigger could not be enabled safely.
    await deps.store.getState();
    ended = await deps.maintenance.leave(by, deps.clock.now());
  } catch (error) {
    context.error(`maintenance: cannot leave: ${ensureError(error).message}`);
    return {
      status: 503,
      body: { error: 'breaker store or maintenance record unavailable; nothing was changed' },
    };
  }
  if (ended === undefined) return { status: 409, body: { error: 'not in maintenance; nothing was changed' } };
  context.warn(`maintenance: LEFT by ${ended.leftBy} (entered by ${ended.by}: ${ended.reason})`);
  const left = { action: 'left', ended: endedView(ended) };
  // Read again right before enabling: a trip while leaving keeps the trigger off for its approval.
  const state = await deps.store.getState().catch(() => undefined);
  if (state === undefined || state.state === 'OPEN')
    return {
      status: 200,
      body: {
        ...left,
        triggerEnabled: false,
        note:
          state === undefined
            ? 'the breaker store did not answer: the trigger stays disabled; the watchdog enables it once the breaker reads CLOSED'
            : `the breaker is OPEN (trip ${state.tripId ?? '?'}): the trigger stays disabled until that trip is approved`,
      },
    };
  try {
    await deps.triggerSwitch.setDisabled(deps.functionName, false);
  } catch (error) {
    return {
      status: 502,
      body: {
        ...left,
        triggerEnabled: false,
        error: `maintenance ended, but the trigger could not be enabled: ${ensureError(error).message}`,
      },
    };
  }
  return { status: 200, body: { ...left, triggerEnabled: true } };
}

const view = (m: Maintenance) => ({ reason: m.reason, by: m.by, since: new Date(m.since).toISOString() });
const endedView = (m: Maintenance & { leftBy: string; leftAt: number }) => ({
  ...view(m),
  leftBy: m.leftBy,
  leftAt: new Date(m.leftAt).toISOString(),
});

const isForm = (request: HttpRequest) =>
  (request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');

type Body =
  { ok: true; value: ReturnType<typeof maintenanceBodySchema.parse> } | { ok: false; answer: Answer };

async function readBody(request: HttpRequest, form: boolean): Promise<Body> {
  const text = await request.text();
  const refuse = (r: HttpResponseInit): Body => ({
    ok: false,
    answer: { status: r.status ?? 400, body: r.jsonBody as Record<string, unknown> },
  });
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return refuse(badRequest('body too large'));
  let value: unknown;
  if (form) {
    // A form sends empty fields; an empty `by` is no name.
    value = Object.fromEntries(
      [...new URLSearchParams(text)].filter(([k, v]) => !(k === 'by' && v.trim() === '')),
    );
  } else {
    try {
      value = JSON.parse(text === '' ? '{}' : text);
    } catch {
      return refuse(badRequest('body is not valid JSON'));
    }
  }
  const parsed = maintenanceBodySchema.safeParse(value);
  if (!parsed.success) return refuse(badRequest('invalid body', parsed.error.issues));
  return { ok: true, value: parsed.data };
}
