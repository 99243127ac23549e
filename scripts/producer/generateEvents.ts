import type { SensorReading } from '../../src/hub/sensorReading';
import { type Random, randomIndex, seededRandom } from './seededRandom';

/** One event ready to send: its partition key (the home) and its body bytes. */
export interface OutgoingEvent {
  readonly partitionKey: string;
  readonly body: Uint8Array;
  /** Why this body is poison, for the producer's summary; absent for a valid reading. */
  readonly poison?: 'non-json' | 'schema-invalid';
}

export interface GenerateOptions {
  readonly count: number;
  readonly homes: number;
  readonly poison: number;
  readonly seed: number;
  /** Time of the first reading; later readings are spaced by `spacingMs`. */
  readonly startTime: Date;
  readonly spacingMs: number;
}

type Kind = SensorReading['kind'];
const kinds: readonly Kind[] = ['motion', 'contact', 'glassBreak', 'smoke', 'co'];
const statesOf: Record<Kind, readonly [SensorReading['state'], SensorReading['state']]> = {
  motion: ['clear', 'detected'],
  contact: ['closed', 'open'],
  glassBreak: ['ok', 'alarm'],
  smoke: ['ok', 'alarm'],
  co: ['ok', 'alarm'],
};
/** How often a sensor of each kind reports its "active" state (alarms are rare). */
const activeShare: Record<Kind, number> = {
  motion: 0.4,
  contact: 0.3,
  glassBreak: 0.01,
  smoke: 0.005,
  co: 0.005,
};
const sensorsPerHome = 4;

export const homeId = (index: number): string => `home-${String(index + 1).padStart(5, '0')}`;

/** Sample readings (and the requested share of poison bodies), deterministic for a given seed. */
export function generateEvents(options: GenerateOptions): OutgoingEvent[] {
  const random = seededRandom(options.seed);
  const events: OutgoingEvent[] = [];
  for (let i = 0; i < options.count; i++) {
    const home = homeId(randomIndex(random, options.homes));
    const occurredAt = new Date(options.startTime.getTime() + i * options.spacingMs).toISOString();
    const reading = sampleReading(random, home, occurredAt);
    if (random() < options.poison) {
      events.push(poisonEvent(random, reading));
    } else {
      events.push({ partitionKey: home, body: encode(JSON.stringify(reading)) });
    }
  }
  return events;
}

function sampleReading(random: Random, home: string, occurredAt: string): SensorReading {
  const sensor = randomIndex(random, sensorsPerHome);
  // Each home's sensors keep their kind: sensor 0 is motion, 1 contact, and so on.
  const kind = kinds[sensor % kinds.length] ?? 'motion';
  const [idle, active] = statesOf[kind];
  const reading: SensorReading = {
    homeId: home,
    sensorId: `${kind}-${sensor + 1}`,
    kind,
    state: random() < activeShare[kind] ? active : idle,
    occurredAt,
  };
  return random() < 0.5 ? { ...reading, batteryPercent: 5 + randomIndex(random, 96) } : reading;
}

function poisonEvent(random: Random, reading: SensorReading): OutgoingEvent {
  if (random() < 0.5) {
    // Truncated JSON: what a crashed or buggy sensor gateway might publish.
    const json = JSON.stringify(reading);
    return {
      partitionKey: reading.homeId,
      body: encode(json.slice(0, Math.max(1, Math.floor(json.length / 2)))),
      poison: 'non-json',
    };
  }
  // Valid JSON, invalid reading: an unknown sensor kind.
  return {
    partitionKey: reading.homeId,
    body: encode(JSON.stringify({ ...reading, kind: 'teleporter' })),
    poison: 'schema-invalid',
  };
}

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
