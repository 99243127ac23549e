import { describe, expect, it } from 'vitest';

import type { ActivitySink } from '../../src/sinks/activitySink';
import { readingVersion } from '../../src/sinks/homeActivityTableSink';
import { runSinkContract, type SinkContractSubject } from '../support/sinkContract';

interface Held {
  partitionId: string;
  sequenceNumber: number;
  version: string;
  revision: number;
}

/**
 * An in-memory downstream and a sink for it; `idempotent: false` is the deliberately broken sink that
 * writes whatever arrives (no version check), the most common mistake with a real API.
 */
function memorySubject(options: {
  idempotent: boolean;
  /** How the unreachable sink fails: with a network code (right) or a bare Error (loses the cause). */
  outageError?: () => Error;
}): SinkContractSubject {
  const rows = new Map<string, Held>();
  let revision = 0;
  const sink = (): ActivitySink => ({
    write: (reading, event, signal) => {
      if (signal.aborted) return Promise.reject(signal.reason as Error);
      const key = `${reading.homeId}/${reading.sensorId}`;
      const version = readingVersion(reading, event);
      const existing = rows.get(key);
      if (options.idempotent && existing && existing.version >= version) return Promise.resolve('stale');
      const [partitionId, sequenceNumber] = [event.partitionId ?? '', event.sequenceNumber ?? -1];
      rows.set(key, { partitionId, sequenceNumber, version, revision: ++revision });
      return Promise.resolve('applied');
    },
    probe: () => Promise.resolve(),
  });
  const down =
    options.outageError ?? (() => Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' }));
  return {
    newSink: sink,
    newUnreachableSink: () => ({
      write: () => Promise.reject(down()),
      probe: () => Promise.reject(down()),
    }),
    readBack: (homeId, sensorId) => Promise.resolve(rows.get(`${homeId}/${sensorId}`)),
  };
}

const broken = (results: Awaited<ReturnType<typeof runSinkContract>>) =>
  results.filter((r) => r.status === 'broken');

describe('the sink contract suite', () => {
  it('passes a sink that keeps its promises', async () => {
    const results = await runSinkContract(memorySubject({ idempotent: true }));
    expect(broken(results)).toEqual([]);
    expect(results.filter((r) => r.status === 'kept').length).toBeGreaterThanOrEqual(6);
  });

  it('fails a sink that is not idempotent, naming the promises it breaks', async () => {
    const results = broken(await runSinkContract(memorySubject({ idempotent: false })));
    expect(results.map((r) => r.promise)).toEqual([
      're-delivery of the same event changes nothing',
      'an older event never overwrites a newer one',
      'two instances racing on one key converge on the newest reading',
      'a re-run after a partial batch converges per key',
    ]);
    expect(results[0]?.message).toMatch(
      /^sink contract: promise "re-delivery of the same event changes nothing" is broken \(it protects G2 .*\): the second delivery rewrote the record \(p3\/s\d+ rev \d+ -> p3\/s\d+ rev \d+\)$/,
    );
    expect(results[1]?.message).toMatch(/after the older event it holds p3\/s\d+3 rev \d+, expected s\d+9$/);
  });

  it('fails a sink whose outage errors lose their cause, so they would be dead-lettered', async () => {
    const results = broken(
      await runSinkContract(
        memorySubject({ idempotent: true, outageError: () => new Error('request failed') }),
      ),
    );
    expect(results.map((r) => r.promise)).toEqual([
      'an unreachable downstream fails outage-like, within the signal',
      'the probe answers while the downstream is up and fails outage-like while it is not',
    ]);
    expect(results[0]?.message).toContain('its error is not outage-like: Error: request failed');
  });
});
