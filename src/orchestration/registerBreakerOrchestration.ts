import type { InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';

import { isStateName } from '../breaker/parseStoredState';
import { readNotice } from '../notify/breakerNotice';
import { NOTICE_CHANNELS } from '../notify/channelList';
import { BreakerActivity, sendActivityName } from './activityNames';
import {
  type BreakerActivities,
  type BreakerActivityDeps,
  makeBreakerActivities,
  type TransitionInput,
} from './breakerActivities';
import { type BreakerOrchestratorSettings, makeBreakerOrchestrator } from './breakerOrchestrator';
import { InvalidActivityInputError } from './errors';
import { BREAKER_ORCHESTRATOR } from './orchestrationIds';

/**
 * Registers the breaker orchestrator and its activities. Dependencies are resolved on the first
 * activity call, so registering (at app load) never connects to anything.
 */
export function registerBreakerOrchestration(
  settings: BreakerOrchestratorSettings,
  getDeps: () => BreakerActivityDeps,
): void {
  let built: { deps: BreakerActivityDeps; activities: BreakerActivities } | undefined;
  const acts = () => {
    const deps = getDeps();
    if (built?.deps !== deps) built = { deps, activities: makeBreakerActivities(deps, settings) };
    return built.activities;
  };

  df.app.orchestration(BREAKER_ORCHESTRATOR, makeBreakerOrchestrator(settings.retry));
  const activity = (
    name: string,
    handler: (input: unknown, context: InvocationContext) => Promise<unknown>,
  ) => df.app.activity(name, { handler });

  activity(BreakerActivity.openTrip, (input) => acts().openTrip(asString(input, 'tripId')));
  activity(BreakerActivity.disableTrigger, (input) => {
    const { functionName, tripId } = asRecord(input);
    return acts().disableTrigger(asString(functionName, 'functionName'), asString(tripId, 'tripId'));
  });
  activity(BreakerActivity.enableTrigger, (input, context) => {
    const { functionName, tripId, record } = asRecord(input);
    return acts().enableTrigger(asString(functionName, 'functionName'), asString(tripId, 'tripId'), context, {
      record: asOptionalBoolean(record, 'record') ?? true,
    });
  });
  // Every channel name a history may hold, configured or not: an episode begun with the webhook on
  // replays its Breaker_SendWebhook calls after WEBHOOK_URL is removed (they come back as refusals).
  for (const channel of NOTICE_CHANNELS)
    activity(sendActivityName(channel), (input, context) =>
      acts().sendNotice(channel, readNotice(asRecord(input)), context),
    );
  activity(BreakerActivity.transition, (input, context) => acts().transition(asTransition(input), context));
  activity(BreakerActivity.resetWindow, () => acts().resetWindow());
  activity(BreakerActivity.readState, () => acts().readState());
  activity(BreakerActivity.drainSaved, (_input, context) => acts().drainSaved(context));
}

function asString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '')
    throw new InvalidActivityInputError(`${what} must be a string`);
  return value;
}

function asOptionalBoolean(value: unknown, what: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new InvalidActivityInputError(`${what} must be true or false`);
}

function asRecord(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null)
    throw new InvalidActivityInputError('input must be an object');
  return value as Record<string, unknown>;
}

function asTransition(value: unknown): TransitionInput {
  const { from, to, tripId, approvedBy } = asRecord(value);
  const state = (s: unknown) => {
    if (!isStateName(s)) throw new InvalidActivityInputError(`bad state ${String(s)}`);
    return s;
  };
  return {
    from: state(from),
    to: state(to),
    tripId: asString(tripId, 'tripId'),
    ...(typeof approvedBy === 'string' ? { approvedBy } : {}),
  };
}
