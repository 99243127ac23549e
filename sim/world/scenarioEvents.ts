/** What an event's body depends on: the run's id, how often poison comes, how many homes. */
export interface EventPlan {
  readonly run: string;
  readonly poisonEvery: number;
  readonly homes: number;
}

/** Builds the body of event `i` of a run: a valid sensor reading, or poison. */
export function eventBody(plan: EventPlan, i: number, now: number): Buffer {
  if (plan.poisonEvery > 0 && i % plan.poisonEvery === plan.poisonEvery - 1)
    return Buffer.from(`not json ${plan.run} #${i}`);
  return Buffer.from(
    JSON.stringify({
      homeId: `home-${plan.run}-${i % plan.homes}`,
      sensorId: `door-${i % 3}`,
      kind: 'contact',
      state: i % 2 === 0 ? 'open' : 'closed',
      occurredAt: new Date(now).toISOString(),
    }),
  );
}
