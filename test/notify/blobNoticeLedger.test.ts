import { BlobServiceClient } from '@azure/storage-blob';
import { describe, expect, inject, it } from 'vitest';

import { blobNoticeLedger } from '../../src/notify/blobNoticeLedger';
import { MAX_STORED_NOTICE_BYTES } from '../../src/notify/noticeLedger';

const T0 = Date.UTC(2026, 5, 1, 9, 0, 0);
let counter = 0;

function freshContainer() {
  const service = BlobServiceClient.fromConnectionString(inject('storageConnectionString'));
  return service.getContainerClient(`ledger-${counter++}-${Date.now().toString(36)}`);
}

const stored = async (container: ReturnType<typeof freshContainer>, key: string) =>
  JSON.parse((await container.getBlockBlobClient(key).downloadToBuffer()).toString('utf8')) as unknown;

describe('the notice ledger (a blob per notice in the app storage account)', () => {
  it("keeps the first attempt's time and message for every re-run, in a new process too", async () => {
    const container = freshContainer();
    const first = await blobNoticeLedger(container).begin('t1/tripped/email', T0, 'first rendering');
    const again = await blobNoticeLedger(container).begin(
      't1/tripped/email',
      T0 + 60_000,
      'second rendering',
    );
    expect(first).toEqual({ firstAttemptAt: T0, message: 'first rendering' });
    expect(again).toEqual(first);
  });

  it('drops the stored message (it carries the approval link) once the notice is marked sent', async () => {
    const container = freshContainer();
    const ledger = blobNoticeLedger(container);
    const entry = await ledger.begin(
      't1/tripped/email',
      T0,
      'a message with https://app/api/approve?t=secret',
    );
    await ledger.markSent('t1/tripped/email', entry, T0 + 2_000);
    expect(await stored(container, 't1/tripped/email')).toEqual({ firstAttemptAt: T0, sentAt: T0 + 2_000 });
    expect(await ledger.begin('t1/tripped/email', T0 + 9_000, 'again')).toEqual({
      firstAttemptAt: T0,
      sentAt: T0 + 2_000,
    });
  });

  it('stores no message above its bound (a re-run then renders again)', async () => {
    const container = freshContainer();
    const big = 'x'.repeat(MAX_STORED_NOTICE_BYTES + 1);
    expect(await blobNoticeLedger(container).begin('t2/tripped/email', T0, big)).toEqual({
      firstAttemptAt: T0,
    });
  });
});
