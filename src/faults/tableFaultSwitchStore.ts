import { RestError, type TableClient } from '@azure/data-tables';

import type { FaultState, FaultSwitchStore } from './faultState';

/** The fault lives in the breaker's table under a partition of its own (the store's queries name theirs). */
export const FAULT_PARTITION = 'fault-switch';
export const FAULT_ROW = 'sample-sink';

interface FaultRow {
  readonly downUntil?: unknown;
  readonly setAt?: unknown;
  readonly by?: unknown;
}

/** One row, read by every instance; the table is created on the first write (Redis store: no table yet). */
export function makeTableFaultSwitchStore(table: TableClient): FaultSwitchStore {
  let created: Promise<void> | undefined;
  const ensureTable = () =>
    (created ??= table.createTable().catch((error: unknown) => {
      created = undefined;
      throw error;
    }));
  return {
    async read() {
      try {
        const row = await table.getEntity<FaultRow>(FAULT_PARTITION, FAULT_ROW);
        const { downUntil, setAt, by } = row;
        if (typeof downUntil !== 'number' || typeof setAt !== 'number') return undefined;
        return { downUntil, setAt, by: typeof by === 'string' ? by : 'unknown' };
      } catch (error) {
        if (error instanceof RestError && error.statusCode === 404) return undefined;
        throw error;
      }
    },
    async write(state: FaultState) {
      await ensureTable();
      await table.upsertEntity({ partitionKey: FAULT_PARTITION, rowKey: FAULT_ROW, ...state }, 'Replace');
    },
    async clear() {
      try {
        await table.deleteEntity(FAULT_PARTITION, FAULT_ROW);
      } catch (error) {
        if (!(error instanceof RestError && error.statusCode === 404)) throw error;
      }
    },
  };
}
