import { TableClient } from '@azure/data-tables';

import { makeTableBreakerStore } from '../src/breaker/tableBreakerStore';
import { benchName, benchPolicy, oneFailure } from './benchPolicy';
import type { BenchSection } from './benchSection';
import { fmt, measureConcurrent } from './measure';

const WRITERS = 8;
const OPS = 1_000;

/** Table `record` with 8 writers (separate stores and clients, one breaker) on Azurite, and the 412s. */
export const tableRecordSection: BenchSection = {
  title: `Table record, ${WRITERS} concurrent writers on Azurite, ${fmt(OPS)} calls`,
  async run({ storageConnectionString, print }) {
    const name = benchName('Tab');
    const tableName = benchName('Table');
    const stores = Array.from({ length: WRITERS }, () =>
      makeTableBreakerStore({
        table: TableClient.fromConnectionString(storageConnectionString, tableName, {
          allowInsecureConnection: true,
          retryOptions: { maxRetries: 1 },
        }),
        name,
        policy: benchPolicy,
        operationTimeoutMs: 10_000,
      }),
    );
    await Promise.all(stores.map((s) => s.getState()));
    const m = await measureConcurrent(WRITERS, OPS, (writer) =>
      stores[writer]!.record(oneFailure, Date.now()),
    );
    const recordConflicts = stores.reduce((n, s) => n + s.stats().recordConflicts, 0);
    const allConflicts = stores.reduce((n, s) => n + s.stats().conflicts, 0);
    print(
      `  ${fmt(m.opsPerSecond)} records/s   p50 ${m.p50Ms.toFixed(2)} ms   p99 ${m.p99Ms.toFixed(2)} ms   ` +
        `412 conflicts on record: ${recordConflicts} (all 412s: ${allConflicts})`,
    );
    await Promise.all(stores.map((s) => s.close()));
  },
};
