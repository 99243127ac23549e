import { BlobServiceClient } from '@azure/storage-blob';
import { expect, inject, it } from 'vitest';

import { savedBlobName, SavedEventsWatch, savedKeyOf } from '../../sim/world/savedEvents';

it('counts the saved blobs a run wrote or rewrote, not what an earlier run left, nor other names', async () => {
  const connection = inject('storageConnectionString');
  const name = `dl-saved-${Math.random().toString(36).slice(2, 8)}`;
  const container = BlobServiceClient.fromConnectionString(connection).getContainerClient(name);
  const env = { AzureWebJobsStorage: connection, DEAD_LETTER_CONTAINER: name };
  const put = (blob: string) => container.getBlockBlobClient(blob).upload('{}', 2);

  // No container yet: nothing saved.
  const empty = await SavedEventsWatch.start(env);
  await empty.poll();
  expect([...empty.keys]).toEqual([]);

  await container.create();
  await put(savedBlobName('0', 1)); // left by an earlier run
  await put(savedBlobName('0', 2)); // left, then rewritten by this run
  const watch = await SavedEventsWatch.start(env);
  await put(savedBlobName('0', 2));
  await put(savedBlobName('1', 7));
  await put('saved/1/not-a-number.json');
  await put('0/8'); // a dead letter's body blob
  await watch.poll();
  // Drained (deleted) after it was seen: still counted.
  await container.deleteBlob(savedBlobName('1', 7));
  await watch.poll();
  expect([...watch.keys].sort()).toEqual(['0/2', '1/7']);
  expect(savedKeyOf('saved/3/12.json')).toBe('3/12');
  await container.delete();
});
