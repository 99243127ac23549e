import type { ReceivedEvent } from '../../src/hub/receivedEvent';
import type { SensorReading } from '../../src/hub/sensorReading';

/** One call the downstream received, refused or not (what an outage costs it). */
export interface SinkCall {
  readonly at: number;
  readonly down: boolean;
  readonly run: string;
}

/** Refuses one write with an error (a scenario's downstream fault), or lets it through. */
export type WriteRefusal = (reading: SensorReading, event: ReceivedEvent) => Error | undefined;

/** The downstream switch of a world: the outage, other refusals, and the calls it received. */
export interface Downstream {
  down: boolean;
  refuse: WriteRefusal | undefined;
  readonly calls: SinkCall[];
}
