import { describe, expect, it } from 'vitest';

import { generateEvents, type GenerateOptions } from '../../scripts/producer/generateEvents';
import { sensorReadingSchema } from '../../src/hub/sensorReading';

const options: GenerateOptions = {
  count: 2_000,
  homes: 25,
  poison: 0,
  seed: 7,
  startTime: new Date('2026-01-01T00:00:00.000Z'),
  spacingMs: 10,
};
const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe('generateEvents', () => {
  it('produces valid sensor readings keyed by their home', () => {
    const events = generateEvents(options);
    expect(events).toHaveLength(2_000);
    for (const event of events) {
      const reading = sensorReadingSchema.parse(JSON.parse(text(event.body)));
      expect(event.partitionKey).toBe(reading.homeId);
      expect(event.poison).toBeUndefined();
    }
  });

  it('spreads the readings over the requested number of homes', () => {
    const homes = new Set(generateEvents(options).map((e) => e.partitionKey));
    expect(homes.size).toBe(25);
    expect([...homes].every((h) => /^home-000(0[1-9]|1\d|2[0-5])$/.test(h))).toBe(true);
  });

  it('spaces occurredAt from the start time', () => {
    const [first, second] = generateEvents({ ...options, count: 2 }).map(
      (e) => sensorReadingSchema.parse(JSON.parse(text(e.body))).occurredAt,
    );
    expect([first, second]).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.010Z']);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const bodies = (seed: number) => generateEvents({ ...options, count: 50, seed }).map((e) => text(e.body));
    expect(bodies(3)).toEqual(bodies(3));
    expect(bodies(3)).not.toEqual(bodies(4));
  });

  it('sends about the requested share of poison, each failing decode or validation', () => {
    const events = generateEvents({ ...options, poison: 0.2 });
    const poison = events.filter((e) => e.poison !== undefined);
    expect(poison.length / events.length).toBeGreaterThan(0.15);
    expect(poison.length / events.length).toBeLessThan(0.25);
    const kinds = new Set(poison.map((e) => e.poison));
    expect(kinds).toEqual(new Set(['non-json', 'schema-invalid']));
    for (const event of poison) {
      if (event.poison === 'non-json') {
        expect(() => JSON.parse(text(event.body)) as unknown).toThrow();
      } else {
        expect(sensorReadingSchema.safeParse(JSON.parse(text(event.body))).success).toBe(false);
      }
    }
  });

  it('sends only poison with --poison 1 and none with 0', () => {
    expect(generateEvents({ ...options, count: 100, poison: 1 }).every((e) => e.poison)).toBe(true);
    expect(generateEvents({ ...options, count: 100, poison: 0 }).some((e) => e.poison)).toBe(false);
  });
});
