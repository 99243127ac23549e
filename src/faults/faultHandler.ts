import type { HttpHandler } from '@azure/functions';

import type { Clock } from '../kernel/clock';
import { ensureError } from '../kernel/ensureError';
import { json, readJsonBody } from '../web/jsonResponse';
import { faultBodySchema } from './faultRequest';
import { type FaultState, type FaultSwitchStore, isFaultActive } from './faultState';

export interface FaultSwitchDeps {
  /** FAULT_SWITCH_ENABLED: when false the endpoint answers 404 and changes nothing. */
  readonly enabled: boolean;
  readonly maxMinutes: number;
  readonly store: FaultSwitchStore;
  readonly clock: Clock;
}

const OFF = {
  error: 'the fault switch is off on this deployment (FAULT_SWITCH_ENABLED is not true)',
} as const;

const view = (state: FaultState | undefined, now: number) =>
  isFaultActive(state, now)
    ? { down: true, until: new Date(state.downUntil).toISOString(), by: state.by }
    : { down: false, until: null, by: null };

/** `GET` and `POST /api/breaker/fault` (function key, like the rest of the operator API). */
export function makeFaultHandler(deps: FaultSwitchDeps): HttpHandler {
  const read = makeFaultStatusHandler(deps);
  const set = makeFaultSetHandler(deps);
  return (request, context) => (request.method === 'POST' ? set : read)(request, context);
}

/** `GET /api/breaker/fault`: whether the sample sink is down on purpose, and until when. */
export function makeFaultStatusHandler(deps: FaultSwitchDeps): HttpHandler {
  return async (_request, context) => {
    if (!deps.enabled) return json(404, OFF);
    try {
      return json(200, view(await deps.store.read(), deps.clock.now()));
    } catch (error) {
      context.error(`fault switch: cannot read it: ${ensureError(error).message}`);
      return json(503, { error: 'fault switch unreadable' });
    }
  };
}

/** `POST /api/breaker/fault`: sets or clears the fault; every use is logged as a warning. */
export function makeFaultSetHandler(deps: FaultSwitchDeps): HttpHandler {
  return async (request, context) => {
    if (!deps.enabled) {
      context.warn('fault switch: a request was refused, the switch is off on this deployment');
      return json(404, OFF);
    }
    const body = await readJsonBody(request, faultBodySchema(deps.maxMinutes));
    if (!body.ok) return body.response;
    const now = deps.clock.now();
    const by = body.value.by ?? 'operator API';
    try {
      if (!body.value.down) {
        await deps.store.clear();
        context.warn(`fault switch: cleared by ${by}; the sample sink is back`);
        return json(200, view(undefined, now));
      }
      const state: FaultState = { downUntil: now + (body.value.minutes ?? 1) * 60_000, setAt: now, by };
      await deps.store.write(state);
      context.warn(
        `fault switch: the sample sink is DOWN on purpose until ${new Date(state.downUntil).toISOString()}, set by ${by}`,
      );
      return json(200, view(state, now));
    } catch (error) {
      context.error(`fault switch: not changed: ${ensureError(error).message}`);
      return json(503, { error: 'fault switch store unavailable; nothing was changed' });
    }
  };
}
