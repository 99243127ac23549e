import { describe, expect, it } from 'vitest';

import { decodeReading } from '../../src/hub/decodeReading';
import type { ReceivedEvent } from '../../src/hub/receivedEvent';
import type { SensorReading } from '../../src/hub/sensorReading';
import { splitIntoLanes } from '../../src/processing/tryBatchEvents';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

const decode = (event: ReceivedEvent) => decodeReading(event.body);

// Three homes, their sensors' readings interleaved as a hub partition delivers them.
const events = ['h1/a', 'h2/a', 'h3/a', 'h1/b', 'h2/b', 'h1/a', 'h3/b'].map((key, i) => {
  const [homeId, sensorId] = key.split('/');
  return receivedEvent(jsonBody(reading({ homeId, sensorId })), i);
});
const row = (r: SensorReading) => `${r.homeId}/${r.sensorId}`;
const firstKeys = (lanes: ReturnType<typeof splitIntoLanes>['lanes']) =>
  lanes.map((lane) => lane.map((e) => e.position));

describe('splitting a batch into lanes', () => {
  it('gives one lane per key, in sequence order, lanes by their first event', () => {
    expect(firstKeys(splitIntoLanes(events, decode, row).lanes)).toEqual([[0, 5], [1], [2], [3], [4], [6]]);
  });

  it('puts the lanes of one write group side by side, groups by their first event', () => {
    const home = (r: SensorReading) => r.homeId;
    expect(firstKeys(splitIntoLanes(events, decode, row, home).lanes)).toEqual([
      [0, 5],
      [3],
      [1],
      [4],
      [2],
      [6],
    ]);
  });
});
