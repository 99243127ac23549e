import fc from 'fast-check';

import { type BreakwaterWorld, FUNCTION_KEY } from '../../../sim/world/breakwaterWorld';
import type { ScenarioPlan } from '../../../sim/world/scenario';
import { eventBody } from '../../../sim/world/scenarioEvents';

/**
 * Faults from the hardening review, for the scenario and property tests: an operator's break-glass
 * reset at any moment, and events whose content is oversized and full of control characters.
 */

/** `POST /api/breaker/reset {force: true}` as an operator would send it; answers with the HTTP status. */
export async function forcedReset(world: BreakwaterWorld, by = 'On-call operator'): Promise<number> {
  const response = await fetch(`${world.http.baseUrl}/api/breaker/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-functions-key': FUNCTION_KEY },
    body: JSON.stringify({ by, force: true }),
  });
  await response.text();
  return response.status;
}

/**
 * A valid reading plus one unknown key of about 60 KB with line breaks, NUL and the Unicode line
 * separator in it: its validation message alone would not fit a queue message.
 */
export function hostileBody(plan: ScenarioPlan, i: number, now: number): Buffer {
  const reading = JSON.parse(eventBody({ ...plan, poisonEvery: 0 }, i, now).toString()) as object;
  const key = `note\r\n[Error] forged line\u0000\u2028${'x'.repeat(60_000)}`;
  return Buffer.from(JSON.stringify({ ...reading, [key]: i }));
}

/** The plan's events with every `every`-th one hostile (the rest as the plan makes them). */
export function withHostileEvents(plan: ScenarioPlan, every: number): ScenarioPlan['makeEvent'] {
  return (i, now) => ({
    partitionKey: `home-${plan.run}-${i % plan.homes}`,
    body: i % every === every - 1 ? hostileBody(plan, i, now) : eventBody(plan, i, now),
  });
}

export interface OperatorFaults {
  /** Second of a forced reset, if any. */
  readonly forcedResetAt: number | undefined;
  /** Every n-th event is hostile; 0 = none. */
  readonly hostileEvery: number;
}

/** Random operator faults for a run that sends events for `sendSeconds`. */
export const operatorFaultsArbitrary = (sendSeconds: number): fc.Arbitrary<OperatorFaults> =>
  fc.record({
    forcedResetAt: fc.option(fc.integer({ min: 1, max: sendSeconds + 120 }), { nil: undefined }),
    hostileEvery: fc.oneof(fc.constant(0), fc.integer({ min: 5, max: 40 })),
  });

/** The plan with those faults applied: a forced reset happening and hostile events. */
export function applyOperatorFaults(
  world: BreakwaterWorld,
  plan: ScenarioPlan,
  faults: OperatorFaults,
): ScenarioPlan {
  const reset =
    faults.forcedResetAt === undefined
      ? []
      : [
          {
            at: faults.forcedResetAt,
            what: 'operator FORCED reset',
            run: async () => {
              await forcedReset(world);
            },
          },
        ];
  return {
    ...plan,
    happenings: [...(plan.happenings ?? []), ...reset],
    minSeconds: Math.max(plan.minSeconds ?? 0, (faults.forcedResetAt ?? 0) + 1),
    ...(faults.hostileEvery > 0 ? { makeEvent: withHostileEvents(plan, faults.hostileEvery) } : {}),
  };
}
