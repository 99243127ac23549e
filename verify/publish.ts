import type { EventHubProducerClient } from '@azure/event-hubs';

import { plannedEvent, type VerifyPlan } from './plan';

/**
 * Publishes events `from` to `to` with the real producer, one batch per partition key (the home), so
 * each key's events land on its partition in order; the run id is an application property too.
 */
export async function publishRange(
  producer: EventHubProducerClient,
  plan: VerifyPlan,
  range: readonly [number, number],
  now: number,
): Promise<number> {
  const byKey = new Map<string, ReturnType<typeof plannedEvent>[]>();
  for (let n = range[0]; n < range[1]; n++) {
    const event = plannedEvent(plan, n, new Date(now).toISOString());
    byKey.set(event.partitionKey, [...(byKey.get(event.partitionKey) ?? []), event]);
  }
  let sent = 0;
  for (const [partitionKey, events] of byKey) {
    let batch = await producer.createBatch({ partitionKey });
    for (const event of events) {
      const data = { body: event.body, properties: { run: plan.run, n: event.n } };
      if (batch.tryAdd(data)) continue;
      await producer.sendBatch(batch);
      sent += batch.count;
      batch = await producer.createBatch({ partitionKey });
      if (!batch.tryAdd(data)) throw new Error(`event ${event.n} does not fit in an empty batch`);
    }
    await producer.sendBatch(batch);
    sent += batch.count;
  }
  return sent;
}
