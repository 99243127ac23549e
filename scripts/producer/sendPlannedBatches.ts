import type { EventData } from '@azure/event-hubs';

import type { PlannedBatch } from './batchByPartitionKey';

/** The part of an Event Hubs batch the producer uses (EventDataBatch satisfies it). */
export interface BatchLike {
  tryAdd(event: EventData): boolean;
  readonly count: number;
}

/** The part of EventHubProducerClient the producer uses. */
export interface ProducerLike<B extends BatchLike> {
  createBatch(options: { partitionKey: string; maxSizeInBytes: number }): Promise<B>;
  sendBatch(batch: B): Promise<void>;
}

/** Different homes are sent concurrently; one home's batches go one after another, keeping their order. */
export async function sendPlannedBatches<B extends BatchLike>(
  client: ProducerLike<B>,
  batches: readonly PlannedBatch[],
  maxSizeInBytes: number,
): Promise<void> {
  const byKey = new Map<string, PlannedBatch[]>();
  for (const batch of batches)
    byKey.set(batch.partitionKey, [...(byKey.get(batch.partitionKey) ?? []), batch]);
  await Promise.all(
    [...byKey.values()].map(async (keyBatches) => {
      for (const batch of keyBatches) await sendPlanned(client, batch, maxSizeInBytes);
    }),
  );
}

/** The SDK measures the real encoded size: when our estimate was short, the batch is split, never dropped. */
async function sendPlanned<B extends BatchLike>(
  client: ProducerLike<B>,
  planned: PlannedBatch,
  maxSizeInBytes: number,
): Promise<void> {
  const options = { partitionKey: planned.partitionKey, maxSizeInBytes };
  let batch = await client.createBatch(options);
  for (const event of planned.events) {
    const data: EventData = {
      body: Buffer.from(event.body),
      contentType: 'application/json',
      properties: { producer: 'produce-events', ...(event.poison ? { poison: event.poison } : {}) },
    };
    if (batch.tryAdd(data)) continue;
    if (batch.count > 0) {
      await client.sendBatch(batch);
      batch = await client.createBatch(options);
      if (batch.tryAdd(data)) continue;
    }
    throw new Error(`an event for partition key ${planned.partitionKey} does not fit in an empty batch`);
  }
  if (batch.count > 0) await client.sendBatch(batch);
}
