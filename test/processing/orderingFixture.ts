import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { beforeAll } from 'vitest';

import { seededRandom } from '../../sim/host/hostConfig';
import type { BreakerGate } from '../../src/breaker/breakerGate';
import { makeBlobQueueDeadLetterStore } from '../../src/deadLetters/blobQueueDeadLetterStore';
import type { ReceivedEvent } from '../../src/hub/receivedEvent';
import type { SensorReading } from '../../src/hub/sensorReading';
import type { FailureSample } from '../../src/kernel/failureSample';
import { type BatchContext, makeBatchProcessor } from '../../src/processing/batchProcessor';
import type { Ordering } from '../../src/processing/ordering';
import type { ActivitySink } from '../../src/sinks/activitySink';
import { testAppEnv } from '../support/appEnv';

let env: Record<string, string>;
/** Gives the calling test file a dead-letter container and queue of its own on the run's Azurite. */
export function setUpDeadLetterStorage(): void {
  beforeAll(() => {
    env = testAppEnv('by-key');
  });
}

const queue = () =>
  QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(env.DEAD_LETTER_QUEUE!);
const deadLetters = () =>
  makeBlobQueueDeadLetterStore(
    BlobServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getContainerClient(
      env.DEAD_LETTER_CONTAINER!,
    ),
    queue(),
  );

/** Takes every dead letter off the queue: [sequence number, reason] in sequence order. */
export async function drain() {
  const q = queue();
  await q.createIfNotExists();
  const { receivedMessageItems } = await q.receiveMessages({ numberOfMessages: 32 });
  await Promise.all(receivedMessageItems.map((m) => q.deleteMessage(m.messageId, m.popReceipt)));
  return receivedMessageItems
    .map(
      (m) =>
        JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as {
          sequenceNumber: number;
          reason: string;
        },
    )
    .sort((a, b) => a.sequenceNumber - b.sequenceNumber)
    .map((m) => [m.sequenceNumber, m.reason]);
}

/** The simulator's seeded generator (mulberry32), so every run interleaves the writes the same way. */
export const seeded = seededRandom;

/**
 * A downstream keyed by sensor that answers each call after a random number of event-loop turns (no
 * real time), records arrival order per key and the most calls in flight at once.
 */
export function recordingSink(seed: number, fail: (r: SensorReading, e: ReceivedEvent) => Error | undefined) {
  const random = seeded(seed);
  const arrived = new Map<string, number[]>();
  let inFlight = 0;
  let maxInFlight = 0;
  const sink: ActivitySink = {
    async write(r, e) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const list = arrived.get(r.sensorId) ?? [];
      arrived.set(r.sensorId, [...list, e.sequenceNumber ?? -1]);
      for (let turns = Math.floor(random() * 8); turns > 0; turns--)
        await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      const error = fail(r, e);
      if (error) throw error;
      return 'applied';
    },
    probe: () => Promise.resolve(),
    orderingKey: (r) => r.sensorId,
  };
  return { sink, arrived, maxInFlight: () => maxInFlight };
}

export function recordingGate() {
  const recorded: FailureSample[][] = [];
  const gate: BreakerGate = {
    check: () => Promise.resolve({ open: false, tripId: undefined }),
    recordFailures: (failures) => {
      recorded.push([...failures]);
      return Promise.resolve({ open: false, tripId: undefined, tripped: false, failuresInWindow: 0 });
    },
  };
  return { gate, recorded };
}

export const context = (rerun = 0): BatchContext => ({
  invocationId: 'inv',
  finalAttempt: false,
  rerun,
  logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
});
export const processor = (sink: ActivitySink, gate: BreakerGate, ordering: Ordering) =>
  makeBatchProcessor({
    functionName: 'ProcessSensorEvents',
    sink,
    deadLetters: deadLetters(),
    breaker: gate,
    clock: { now: () => 0 },
    retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
    batchDeadlineMs: 60_000,
    outage: { policy: 'hold', isolateAfterReruns: 3, failFastAfter: 3 },
    ordering,
  });
