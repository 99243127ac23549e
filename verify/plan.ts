import type { SensorReading } from '../src/hub/sensorReading';

/** What one verify run publishes: N readings with the run id, a few of them poison. */
export interface VerifyPlan {
  readonly run: string;
  readonly events: number;
  /** Every n-th event is not a reading (dead-lettered as poison); 0 = none. */
  readonly poisonEvery: number;
  /** Distinct partition keys (homes) the readings spread over. */
  readonly homes: number;
}

/** The three publishing phases: before the fault, during it (to trip), and while the breaker is OPEN. */
export type PublishPhase = 'before' | 'outage' | 'open';

export interface PlannedEvent {
  readonly n: number;
  readonly partitionKey: string;
  readonly body: Buffer;
  readonly poison: boolean;
}

/** Half before the fault, a quarter to trip the breaker, a quarter while it is OPEN. */
export function phaseRange(plan: VerifyPlan, phase: PublishPhase): readonly [number, number] {
  const half = Math.floor(plan.events / 2);
  const threeQuarters = Math.floor((plan.events * 3) / 4);
  if (phase === 'before') return [0, half];
  if (phase === 'outage') return [half, threeQuarters];
  return [threeQuarters, plan.events];
}

/** Every row of a run shares this partition-key prefix, so the sink is read with one range query. */
export const homePrefix = (run: string) => `verify-${run}-`;

const isPoison = (plan: VerifyPlan, n: number) =>
  plan.poisonEvery > 0 && n % plan.poisonEvery === plan.poisonEvery - 1;

/** Event `n`: a door reading of its own row (`home`/`e<n>`), so the sink keeps every event apart. */
export function plannedEvent(plan: VerifyPlan, n: number, occurredAt: string): PlannedEvent {
  const partitionKey = `${homePrefix(plan.run)}h${n % plan.homes}`;
  if (isPoison(plan, n))
    return { n, partitionKey, poison: true, body: Buffer.from(`verify:${plan.run}:${n} is not a reading`) };
  const reading: SensorReading = {
    homeId: partitionKey,
    sensorId: `e${n}`,
    kind: 'contact',
    state: n % 2 === 0 ? 'open' : 'closed',
    occurredAt,
  };
  return { n, partitionKey, poison: false, body: Buffer.from(JSON.stringify(reading)) };
}

/** The event number a body of this run carries (a reading's row or a poison marker), if any. */
export function eventNumberOf(run: string, body: string): number | undefined {
  const poison = new RegExp(`^verify:${run}:(\\d+) `).exec(body);
  if (poison?.[1] !== undefined) return Number(poison[1]);
  try {
    const value = JSON.parse(body) as { homeId?: unknown; sensorId?: unknown };
    if (typeof value.homeId !== 'string' || !value.homeId.startsWith(homePrefix(run))) return undefined;
    const m = typeof value.sensorId === 'string' ? /^e(\d+)$/.exec(value.sensorId) : null;
    return m?.[1] === undefined ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

export const poisonCount = (plan: VerifyPlan) =>
  Array.from({ length: plan.events }, (_, n) => n).filter((n) => isPoison(plan, n)).length;
