import { describe, expect, it } from 'vitest';

import { alwaysClosedGate } from '../../src/breaker/breakerGate';
import { makeBatchProcessor } from '../../src/processing/batchProcessor';
import { makePartitionProgress } from '../../src/processing/partitionProgress';
import type { ActivitySink } from '../../src/sinks/activitySink';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

function manualClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}
function recordingLogger() {
  const errors: string[] = [];
  const infos: string[] = [];
  const keep =
    (into: string[]) =>
    (...a: unknown[]) =>
      into.push(a.map(String).join(' '));
  return { errors, infos, log: keep(infos), warn: keep(infos), error: keep(errors) };
}

// A partition that cannot make progress for a reason that is not an outage is
// counted, logged once per interval with its partition and sequence number, and shown.
describe('held batches and re-runs per partition', () => {
  const setup = () => {
    const clock = manualClock();
    const logger = recordingLogger();
    const progress = makePartitionProgress({ clock, logger, stuckAfterReruns: 3, logIntervalMs: 60_000 });
    return { clock, logger, progress };
  };

  it('shows each partition held, with its re-runs, and clears it when the batch completes', () => {
    const { clock, progress } = setup();
    const at = clock.now();
    progress.ran({ partitionId: '3', firstSequence: 40, rerun: 0, outcome: 'outage' });
    clock.advance(5_000);
    progress.ran({ partitionId: '3', firstSequence: 40, rerun: 1, outcome: 'circuit-open' });
    progress.ran({ partitionId: '1', firstSequence: 7, rerun: 0, outcome: 'completed' });
    expect(progress.snapshot()).toMatchObject({
      heldBatches: 1,
      stuckPartitions: 0,
      partitions: [
        { partitionId: '1', held: false, heldRuns: 0 },
        { partitionId: '3', held: true, reason: 'circuit-open', rerun: 1, heldRuns: 2, heldSince: at },
      ],
    });
    progress.ran({ partitionId: '3', firstSequence: 40, rerun: 2, outcome: 'completed' });
    expect(progress.snapshot()).toMatchObject({
      heldBatches: 0,
      partitions: [{ partitionId: '1' }, { partitionId: '3', held: false, heldRuns: 2, maxRerun: 2 }],
    });
  });

  it('an outage held for many re-runs is not stuck: the breaker is what handles it', () => {
    const { logger, progress } = setup();
    for (let rerun = 0; rerun < 10; rerun++)
      progress.ran({ partitionId: '0', firstSequence: 1, rerun, outcome: 'outage' });
    expect(progress.snapshot()).toMatchObject({ stuckPartitions: 0, stuckEpisodes: 0 });
    expect(logger.errors).toEqual([]);
  });

  it('dead letters that cannot be stored, held over and over: stuck, counted, logged once per interval', () => {
    const { clock, logger, progress } = setup();
    for (let rerun = 0; rerun <= 9; rerun++) {
      progress.ran({ partitionId: '5', firstSequence: 1200, rerun, outcome: 'dead-letter-store' });
      clock.advance(10_000);
    }
    expect(progress.snapshot()).toMatchObject({
      stuckPartitions: 1,
      stuckEpisodes: 1,
      partitions: [{ partitionId: '5', stuck: true, reason: 'dead-letter-store', rerun: 9 }],
    });
    // Stuck from re-run 3 (t+30 s) to re-run 9 (t+90 s): the first line, then one more 60 s later.
    expect(logger.errors).toHaveLength(2);
    for (const line of logger.errors)
      expect(line).toMatch(/partition 5 at sequence 1200 cannot make progress/);
    progress.ran({ partitionId: '5', firstSequence: 1200, rerun: 10, outcome: 'completed' });
    expect(progress.snapshot()).toMatchObject({ stuckPartitions: 0, stuckEpisodes: 1 });
    expect(logger.infos.some((l) => l.includes('partition 5 at sequence 1200 moves again'))).toBe(true);
  });

  it('the processor reports every run: a dead-letter store that keeps failing makes the partition stuck', async () => {
    const clock = manualClock();
    const logger = recordingLogger();
    const progress = makePartitionProgress({ clock, logger, stuckAfterReruns: 3, logIntervalMs: 60_000 });
    const sink: ActivitySink = { write: () => Promise.resolve('applied'), probe: () => Promise.resolve() };
    const processBatch = makeBatchProcessor({
      functionName: 'ProcessSensorEvents',
      sink,
      deadLetters: { write: () => Promise.reject(new Error('storage account unreachable')) },
      breaker: alwaysClosedGate,
      clock,
      retry: { maxAttempts: 1, initialDelayMs: 1, maxDelayMs: 1 },
      batchDeadlineMs: 10_000,
      progress,
    });
    const batch = [
      receivedEvent(jsonBody(reading()), 70, '2'),
      receivedEvent(Buffer.from('poison'), 71, '2'),
    ];
    const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };
    for (let rerun = 0; rerun <= 3; rerun++) {
      await expect(
        processBatch(batch, { invocationId: `i${rerun}`, logger: silent, finalAttempt: false, rerun }),
      ).rejects.toMatchObject({ code: 'DEAD_LETTER_WRITE_FAILED' });
      clock.advance(5_000);
    }
    expect(progress.snapshot()).toMatchObject({
      heldBatches: 1,
      stuckPartitions: 1,
      partitions: [
        { partitionId: '2', firstSequence: 70, rerun: 3, reason: 'dead-letter-store', stuck: true },
      ],
    });
    expect(logger.errors).toEqual([expect.stringMatching(/partition 2 at sequence 70 cannot make progress/)]);
  });
});
