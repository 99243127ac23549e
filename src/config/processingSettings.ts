import { orderingModes } from '../processing/ordering';
import { boolean, integer, oneOf, text } from './settingKinds';
import { sinkSettings } from './sinkSettings';

/** Settings of the processing path: per-event retry, the batch deadline, the host retry policy, outage handling, ordering, the sink and dead letters. */
export const processingSettings = {
  EVENT_MAX_ATTEMPTS: integer({
    description: 'Attempts per event against the sink before it counts as failed (1 = no retry).',
    default: '4',
    example: '4',
    min: 1,
    max: 20,
  }),
  EVENT_RETRY_INITIAL_DELAY_MS: integer({
    description: 'First backoff delay between attempts of one event; grows exponentially with jitter.',
    default: '200',
    example: '200',
    min: 0,
    max: 60_000,
  }),
  EVENT_RETRY_MAX_DELAY_MS: integer({
    description: 'Upper bound of one backoff delay between attempts of one event.',
    default: '5000',
    example: '5000',
    min: 0,
    max: 300_000,
  }),
  BATCH_DEADLINE_MS: integer({
    description:
      'Time budget of one invocation for sink attempts; events not settled by then count as failed. ' +
      "At most host.json's functionTimeout (10 min) less 1 min, so dead letters are written before the host gives up.",
    default: '120000',
    example: '120000',
    min: 1_000,
    // host.json functionTimeout 00:10:00 less one minute for the store round trip and dead letters;
    // a test keeps the two in step.
    max: 540_000,
    expects:
      "a whole number from 1000 to 540000 (host.json's functionTimeout of 10 min, less 1 min to dead-letter)",
  }),
  TRIGGER_RETRY_MAX_COUNT: integer({
    description:
      'Host retry policy of the trigger: re-runs of a held batch. -1 (forever) is what keeps the checkpoint ' +
      'from advancing while the circuit is open; a finite count dead-letters the batch on the last run.',
    default: '-1',
    example: '-1',
    min: -1,
    max: 1_000,
  }),
  TRIGGER_RETRY_FINITE_ACKNOWLEDGED: boolean({
    description:
      'Acknowledges that a finite TRIGGER_RETRY_MAX_COUNT can lose events: after the last failed attempt the ' +
      'host checkpoints anyway, past whatever that attempt had not dead-lettered (a worker restart, a timeout). ' +
      'Start-up refuses a finite count without it.',
    default: 'false',
    example: 'false',
  }),
  TRIGGER_RETRY_MIN_INTERVAL_SECONDS: integer({
    description: 'Host retry policy: first delay before a held batch is re-run.',
    default: '5',
    example: '5',
    min: 1,
    max: 900,
  }),
  TRIGGER_RETRY_MAX_INTERVAL_SECONDS: integer({
    description: 'Host retry policy: longest delay between re-runs (Microsoft advises under a minute).',
    default: '30',
    example: '30',
    min: 1,
    max: 900,
  }),
  ISOLATE_AFTER_RERUNS: integer({
    description:
      'Host re-runs of a held batch after which an event that still fails while others get through is ' +
      'dead-lettered as isolated and the partition moves on. Also when a hold that is not an outage counts as stuck.',
    default: '3',
    example: '3',
    min: 0,
    max: 100,
  }),
  FAIL_FAST_AFTER: integer({
    description:
      'Outage-like failures in a row after which the rest of the batch is not tried on this run (held; the ' +
      'untried events count as failures for the breaker). 0 tries every event.',
    default: '3',
    example: '3',
    min: 0,
    max: 1_000,
  }),
  READING_MAX_FUTURE_SKEW_SECONDS: integer({
    description:
      "How far ahead of its event's enqueued time a reading may be dated (a gateway's clock running fast). " +
      'Beyond it the reading is dead-lettered as future-timestamp and never written: the sink keeps the ' +
      'newest reading per sensor, so it would win over every real reading after it.',
    default: '300',
    example: '300',
    min: 0,
    max: 86_400,
  }),
  ORDERING: oneOf(orderingModes, {
    description:
      'Order of sink writes inside a batch: key writes readings of different keys (what the sink declares, ' +
      'e.g. the row) concurrently and those of one key strictly in sequence order; partition writes the ' +
      'batch one event after the other.',
    default: 'key',
    example: 'key',
  }),
  SINK_CONCURRENCY: integer({
    description: 'Most sink writes in flight at once for one batch when ORDERING is key (1 = one at a time).',
    default: '16',
    example: '16',
    min: 1,
    max: 256,
  }),
  SINK_TABLE_NAME: text({
    description: 'Table holding the home activity view (latest reading per sensor).',
    default: 'HomeActivity',
    example: 'HomeActivity',
    pattern: /^[A-Za-z][A-Za-z0-9]{2,62}$/,
    expects: 'a table name: a letter then 2 to 62 letters or digits',
  }),
  ...sinkSettings,
  DEAD_LETTER_CONTAINER: text({
    description: 'Blob container holding dead-lettered event bodies (claim check).',
    default: 'dead-letters',
    example: 'dead-letters',
    pattern: /^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/,
    expects: 'a container name: 3 to 63 lowercase letters, digits and single dashes',
  }),
  DEAD_LETTER_QUEUE: text({
    description: 'Storage queue holding one message per dead letter; the redrive function reads it.',
    default: 'dead-letters',
    example: 'dead-letters',
    pattern: /^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/,
    expects: 'a queue name: 3 to 63 lowercase letters, digits and single dashes',
  }),
} as const;
