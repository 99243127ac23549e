/**
 * Sends sample home-security sensor readings to an Event Hub: the local emulator (docker compose) or Azure.
 *   npm run produce -- --count 1000 --rate 200 --homes 50 --poison 0.05
 * The pure parts (arguments, readings, batches) live in scripts/producer/ and are tested; this file only
 * talks to Event Hubs.
 */
import { type EventHubProducerClient as Client, EventHubProducerClient } from '@azure/event-hubs';
import { DefaultAzureCredential } from '@azure/identity';

import { batchByPartitionKey, windowsForRate } from './producer/batchByPartitionKey';
import { generateEvents } from './producer/generateEvents';
import {
  parseProducerArgs,
  ProducerArgsError,
  type ProducerOptions,
  type ProducerTarget,
  producerUsage,
} from './producer/producerArgs';
import { describeProducerError, PRODUCER_RETRY } from './producer/producerErrors';
import { sendPlannedBatches } from './producer/sendPlannedBatches';

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let parsed;
  try {
    parsed = parseProducerArgs(argv, env);
  } catch (error) {
    if (!(error instanceof ProducerArgsError)) throw error;
    for (const line of error.message.split('\n')) console.error(`produce-events: ${line}`);
    console.error(`\n${producerUsage}`);
    return 2;
  }
  if (parsed.help) {
    console.log(producerUsage);
    return 0;
  }
  try {
    await produce(parsed);
  } catch (error) {
    console.error(`produce-events: ${describeProducerError(error, parsed.target)}`);
    return 1;
  }
  return 0;
}

async function produce(options: ProducerOptions): Promise<void> {
  const events = generateEvents({
    count: options.count,
    homes: options.homes,
    poison: options.poison,
    seed: options.seed,
    startTime: new Date(),
    spacingMs: options.rate > 0 ? 1000 / options.rate : 0,
  });
  const client = connect(options.target);
  const started = Date.now();
  let sent = 0;
  try {
    const windows = windowsForRate(events, options.rate);
    for (const [index, window] of windows.entries()) {
      const windowStart = Date.now();
      const batches = batchByPartitionKey(window, { maxBatchBytes: options.maxBatchBytes });
      await sendPlannedBatches(client, batches, options.maxBatchBytes);
      sent += window.length;
      console.log(`sent ${sent}/${events.length} events (${batches.length} batches in this window)`);
      if (options.rate > 0 && index < windows.length - 1) await sleep(1000 - (Date.now() - windowStart));
    }
  } finally {
    await client.close();
  }
  const poison = events.filter((e) => e.poison !== undefined).length;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `done: ${events.length} events (${poison} poison) to ${client.eventHubName} from ${options.homes} homes in ${seconds} s`,
  );
}

function connect(target: ProducerTarget): Client {
  const options = { retryOptions: PRODUCER_RETRY };
  if (target.kind === 'connectionString') {
    return target.hubName === undefined
      ? new EventHubProducerClient(target.connectionString, options)
      : new EventHubProducerClient(target.connectionString, target.hubName, options);
  }
  return new EventHubProducerClient(
    target.fullyQualifiedNamespace,
    target.hubName,
    new DefaultAzureCredential(),
    options,
  );
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`produce-events: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
