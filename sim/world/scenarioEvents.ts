/** What an event's body depends on: the run's id, how often poison comes, how many homes. */
export interface EventPlan {
  readonly run: string;
  readonly poisonEvery: number;
  readonly homes: number;
  /**
   * Distinct sensors per home (default 3, `door-0..2`). 15 or more in one batch reach the Table service's
   * 15 comparisons per `$filter` in key mode; over 100 fill a batch with one home's transaction.
   */
  readonly sensorsPerHome?: number;
  /**
   * Put in every sensor id (the sink's RowKey), e.g. a character the Table service refuses in keys
   * (`/ \ # ?`). Home ids stay plain: the world's `homeId/sensorId` keys split at the first `/`.
   */
  readonly keyChar?: string;
}

/** The home (and partition key) of event `i`. */
export function homeIdOf(plan: EventPlan, i: number): string {
  return `home-${plan.run}-${i % plan.homes}`;
}

function sensorIdOf(plan: EventPlan, i: number): string {
  if (plan.sensorsPerHome === undefined) return `door-${plan.keyChar ?? ''}${i % 3}`;
  // Consecutive events of one home (every `homes`-th event) go to consecutive sensors.
  return `s${plan.keyChar ?? ''}${Math.floor(i / plan.homes) % plan.sensorsPerHome}`;
}

/** Builds the body of event `i` of a run: a valid sensor reading, or poison. */
export function eventBody(plan: EventPlan, i: number, now: number): Buffer {
  if (plan.poisonEvery > 0 && i % plan.poisonEvery === plan.poisonEvery - 1)
    return Buffer.from(`not json ${plan.run} #${i}`);
  return Buffer.from(
    JSON.stringify({
      homeId: homeIdOf(plan, i),
      sensorId: sensorIdOf(plan, i),
      kind: 'contact',
      state: i % 2 === 0 ? 'open' : 'closed',
      occurredAt: new Date(now).toISOString(),
    }),
  );
}
