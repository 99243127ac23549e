import { BlobServiceClient } from '@azure/storage-blob';
import { describe, expect, inject, it } from 'vitest';

import { blobMaintenanceRecord } from '../../src/maintenance/blobMaintenanceRecord';

const FN = 'ProcessSensorEvents';
const T0 = Date.UTC(2026, 5, 1, 9, 0, 0);
let counter = 0;

/** A fresh container; `open()` makes another record over it, as a restarted or redeployed app would. */
function freshContainer() {
  const service = BlobServiceClient.fromConnectionString(inject('storageConnectionString'));
  const container = service.getContainerClient(`mtest-${counter++}-${Date.now().toString(36)}`);
  return { container, open: () => blobMaintenanceRecord(container, FN) };
}

describe('the maintenance record (blobs in the app storage account)', () => {
  it('keeps who entered, why and since when, across a new process', async () => {
    const { open } = freshContainer();
    expect(await open().current()).toBeUndefined();
    expect(await open().enter({ reason: 'migrating to the new app', by: 'Ana', since: T0 })).toEqual({
      entered: true,
    });
    expect(await open().current()).toEqual({ reason: 'migrating to the new app', by: 'Ana', since: T0 });
  });

  it('refuses a second enter and keeps the first (one of two concurrent enters wins)', async () => {
    const record = freshContainer().open();
    const results = await Promise.all([
      record.enter({ reason: 'first', by: 'Ana', since: T0 }),
      record.enter({ reason: 'second', by: 'Ben', since: T0 + 1 }),
    ]);
    expect(results.filter((r) => r.entered)).toHaveLength(1);
    const kept = await record.current();
    const loser = results.find((r) => !r.entered);
    expect(loser).toEqual({ entered: false, current: kept });
  });

  it('leaving ends it once and keeps it in the history, newest first', async () => {
    const record = freshContainer().open();
    expect(await record.leave('Ana', T0)).toBeUndefined();
    await record.enter({ reason: 'one', by: 'Ana', since: T0 });
    expect(await record.leave('Ben', T0 + 60_000)).toEqual({
      reason: 'one',
      by: 'Ana',
      since: T0,
      leftBy: 'Ben',
      leftAt: T0 + 60_000,
    });
    expect(await record.leave('Ben', T0 + 61_000)).toBeUndefined();
    expect(await record.current()).toBeUndefined();
    await record.enter({ reason: 'two', by: 'Cy', since: T0 + 3_600_000 });
    await record.leave('Cy', T0 + 7_200_000);
    expect((await record.history(10)).map((m) => m.reason)).toEqual(['two', 'one']);
    expect(await record.history(1)).toHaveLength(1);
  });

  it('bounds and cleans what it stores and what it reads back', async () => {
    const { container, open } = freshContainer();
    await open().enter({ reason: `line\r\nforged ${'x'.repeat(600)}`, by: 'Ana\u0000', since: T0 });
    const stored = await open().current();
    expect(stored?.reason).not.toMatch(/[\r\n]/);
    expect(stored?.reason.length).toBeLessThan(540);
    expect(stored?.by).toBe('Ana ');
    // Someone edited the blob by hand: it still reads as a maintenance in force, saying so.
    await container.getBlockBlobClient(`${FN}/current.json`).upload('not json', 8);
    expect((await open().current())?.reason).toMatch(/does not read/);
  });
});
