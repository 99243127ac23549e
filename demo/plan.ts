import type { ScenarioPlan } from '../sim/world/scenario';
import type { SensorReading } from '../src/hub/sensorReading';
import type { DemoOptions } from './args';

export const DEMO_RUN = 'demo';
const HOMES = 500;
/** Every n-th event is a garbled payload (poison): it is dead-lettered, never retried. */
const POISON_EVERY = 400;

const sensors = [
  { id: 'motion-hall', kind: 'motion', states: ['detected', 'clear'] },
  { id: 'door-front', kind: 'contact', states: ['open', 'closed'] },
  { id: 'window-kitchen', kind: 'contact', states: ['open', 'closed'] },
  { id: 'glass-living', kind: 'glassBreak', states: ['ok', 'ok', 'ok', 'alarm'] },
  { id: 'smoke-hall', kind: 'smoke', states: ['ok'] },
  { id: 'co-basement', kind: 'co', states: ['ok'] },
] as const satisfies readonly {
  id: string;
  kind: SensorReading['kind'];
  states: readonly SensorReading['state'][];
}[];

/** Event `i` of the demo: a reading from one of the home's sensors, keyed by home (one home, one partition). */
export function sensorEvent(i: number, now: number): { partitionKey: string; body: Buffer } {
  const homeId = `home-${String((i * 7919) % HOMES).padStart(5, '0')}`;
  if (i % POISON_EVERY === POISON_EVERY - 1)
    return { partitionKey: homeId, body: Buffer.from(`{"homeId":"${homeId}","kind":garbled`) };
  const sensor = sensors[i % sensors.length] ?? sensors[0];
  const reading: SensorReading = {
    homeId,
    sensorId: sensor.id,
    kind: sensor.kind,
    state: sensor.states[Math.floor(i / sensors.length) % sensor.states.length] ?? sensor.states[0],
    occurredAt: new Date(now).toISOString(),
    batteryPercent: 40 + (i % 61),
  };
  return { partitionKey: homeId, body: Buffer.from(JSON.stringify(reading)) };
}

/** The fault schedule of a demo run. Manual approval may take a person a while: the run waits up to 3 h. */
export function demoPlan(options: DemoOptions): ScenarioPlan {
  const outageEnd = options.outageStart + options.outageSeconds;
  return {
    run: DEMO_RUN,
    partitions: options.partitions,
    events: options.events,
    sendSeconds: options.sendSeconds,
    homes: HOMES,
    poisonEvery: POISON_EVERY,
    outages: options.outageSeconds > 0 ? [{ from: options.outageStart, to: outageEnd }] : [],
    approveAfter: options.autoApproveSeconds ?? Number.POSITIVE_INFINITY,
    crashes: [],
    maxSeconds:
      Math.max(options.sendSeconds, outageEnd) +
      (options.autoApproveSeconds === undefined ? 3 * 3600 : options.autoApproveSeconds * 4 + 900),
    makeEvent: sensorEvent,
    ...(options.retentionSeconds === undefined ? {} : { retentionSeconds: options.retentionSeconds }),
  };
}
