import { randomUUID } from 'node:crypto';
import { odata, RestError, TableClient, type TableEntity, type TransactionAction } from '@azure/data-tables';
import { BlobServiceClient, RestError as BlobRestError } from '@azure/storage-blob';
import { QueueServiceClient, RestError as QueueRestError } from '@azure/storage-queue';
import { beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * Each limit the real storage services enforce and Azurite does not (or not all of): refused through
 * the conformance layer, with the service's status and error code, by the real SDK clients; the value
 * at the limit still passes.
 */
const connection = () => inject('storageConnectionString');
const tableName = `limits${randomUUID().replace(/-/g, '').slice(0, 12)}`;
let table: TableClient;

beforeAll(async () => {
  table = TableClient.fromConnectionString(connection(), tableName, { allowInsecureConnection: true });
  await table.createTable();
});

/**
 * The refusal a call ends in: status and service error code (the Tables SDK leaves `code` unset outside
 * transactions and keeps the service's in `details.odataError`, for Azure as for the layer).
 */
async function refusal(call: () => Promise<unknown>) {
  try {
    await call();
  } catch (error) {
    if (error instanceof RestError || error instanceof BlobRestError || error instanceof QueueRestError) {
      const details = error.details as { odataError?: { code?: string } } | undefined;
      return { status: error.statusCode, code: error.code ?? details?.odataError?.code };
    }
    throw error;
  }
  return 'accepted';
}

const many = (n: number, prefix = 'p') =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 1]));

describe('Table: the $filter limit', () => {
  const rowsFilter = (n: number) =>
    `${odata`PartitionKey eq ${'f'}`} and (${Array.from({ length: n - 1 }, (_, i) => odata`RowKey eq ${`r${i}`}`).join(' or ')})`;
  const query = (filter: string) => async () => {
    await table.listEntities({ queryOptions: { filter } }).next();
  };

  it('refuses 16 comparisons in one filter (400 InvalidInput) and takes 15', async () => {
    expect(await refusal(query(rowsFilter(16)))).toEqual({ status: 400, code: 'InvalidInput' });
    expect(await refusal(query(rowsFilter(15)))).toBe('accepted');
  });

  it('does not count an operator inside a string literal', async () => {
    const filter = odata`PartitionKey eq ${'eq ne gt ge lt le eq ne gt ge lt le eq ne gt ge'}`;
    expect(await refusal(query(filter))).toBe('accepted');
  });
});

describe('Table: entity group transactions', () => {
  const creates = (pk: string, n: number, extra: Record<string, unknown> = {}): TransactionAction[] =>
    Array.from({ length: n }, (_, i) => ['create', { partitionKey: pk, rowKey: `r${i}`, ...extra }]);

  it('refuses 101 operations (400 InvalidInput) and takes 100', async () => {
    expect(await refusal(() => table.submitTransaction(creates('t101', 101)))).toEqual({
      status: 400,
      code: 'InvalidInput',
    });
    expect(await refusal(() => table.submitTransaction(creates('t100', 100)))).toBe('accepted');
  });

  it('refuses a transaction over 4 MiB (413 RequestBodyTooLarge)', async () => {
    // 9 entities of 15 strings of 32,000 characters: each entity under 1 MiB, the body over 4 MiB.
    const big = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`s${i}`, 'a'.repeat(32_000)]));
    expect(await refusal(() => table.submitTransaction(creates('t4m', 9, big)))).toEqual({
      status: 413,
      code: 'RequestBodyTooLarge',
    });
  });

  it('refuses the same row twice in one transaction (400 InvalidDuplicateRow)', async () => {
    const twice: TransactionAction[] = [
      ['create', { partitionKey: 'dup', rowKey: 'a' }],
      ['upsert', { partitionKey: 'dup', rowKey: 'a', v: 2 }],
    ];
    expect(await refusal(() => table.submitTransaction(twice))).toEqual({
      status: 400,
      code: 'InvalidDuplicateRow',
    });
  });

  it('refuses a transaction across partitions (400 CommandsInBatchActOnDifferentPartitions)', async () => {
    // The SDK refuses this before sending; other clients do not, so the layer checks the wire form.
    const endpoint = /TableEndpoint=([^;]+)/.exec(connection())?.[1] ?? '';
    const part = (pk: string) =>
      [
        '--changeset_c',
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        `POST ${endpoint}/${tableName} HTTP/1.1`,
        'Content-Type: application/json',
        '',
        JSON.stringify({ PartitionKey: pk, RowKey: 'r' }),
      ].join('\r\n');
    const body = [
      '--batch_b',
      'Content-Type: multipart/mixed; boundary=changeset_c',
      '',
      part('one'),
      part('two'),
      '--changeset_c--',
      '--batch_b--',
      '',
    ].join('\r\n');
    const response = await fetch(`${endpoint}/$batch`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/mixed; boundary=batch_b' },
      body,
    });
    expect(response.status).toBe(202);
    const text = await response.text();
    expect(text).toContain('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(/\{.*\}/.exec(text)?.[0] ?? '{}')).toMatchObject({
      'odata.error': { code: 'CommandsInBatchActOnDifferentPartitions' },
    });
  });

  it('refuses a transaction with one bad entity and applies none of it', async () => {
    const actions: TransactionAction[] = [
      ['create', { partitionKey: 'atomic', rowKey: 'good' }],
      ['create', { partitionKey: 'atomic', rowKey: 'bad/key' }],
    ];
    expect(await refusal(() => table.submitTransaction(actions))).toEqual({
      status: 400,
      code: 'OutOfRangeInput',
    });
    expect(await refusal(() => table.getEntity('atomic', 'good'))).toMatchObject({ status: 404 });
  });
});

describe('Table: entity limits', () => {
  const create = (entity: TableEntity) => () => table.createEntity(entity);

  it('refuses an entity over 1 MiB (400 EntityTooLarge)', async () => {
    const props = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`s${i}`, 'a'.repeat(32_000)]));
    expect(await refusal(create({ partitionKey: 'e', rowKey: 'big', ...props }))).toEqual({
      status: 400,
      code: 'EntityTooLarge',
    });
  });

  it('refuses 253 own properties (400 TooManyProperties) and takes 252', async () => {
    expect(await refusal(create({ partitionKey: 'e', rowKey: 'n253', ...many(253) }))).toEqual({
      status: 400,
      code: 'TooManyProperties',
    });
    expect(await refusal(create({ partitionKey: 'e', rowKey: 'n252', ...many(252) }))).toBe('accepted');
  });

  it('refuses a string of more than 32K characters (400 PropertyValueTooLarge) and takes 32K', async () => {
    expect(await refusal(create({ partitionKey: 'e', rowKey: 's+', s: 'a'.repeat(32 * 1024 + 1) }))).toEqual({
      status: 400,
      code: 'PropertyValueTooLarge',
    });
    expect(await refusal(create({ partitionKey: 'e', rowKey: 's', s: 'a'.repeat(32 * 1024) }))).toBe(
      'accepted',
    );
  });

  it('refuses a key over 1 KiB (400 KeyValueTooLarge) and takes 512 characters', async () => {
    expect(await refusal(create({ partitionKey: 'k'.repeat(513), rowKey: 'r' }))).toEqual({
      status: 400,
      code: 'KeyValueTooLarge',
    });
    expect(await refusal(create({ partitionKey: 'e', rowKey: 'k'.repeat(513) }))).toEqual({
      status: 400,
      code: 'KeyValueTooLarge',
    });
    expect(await refusal(create({ partitionKey: 'k'.repeat(512), rowKey: 'r' }))).toBe('accepted');
  });

  it.each(['a/b', 'a\\b', 'a#b', 'a?b', 'a\u0001b', 'a\u007fb', 'a\u0085b'])(
    'refuses the key character in %j (400 OutOfRangeInput)',
    async (key) => {
      expect(await refusal(create({ partitionKey: 'e', rowKey: key }))).toEqual({
        status: 400,
        code: 'OutOfRangeInput',
      });
      expect(await refusal(create({ partitionKey: key, rowKey: 'r' }))).toEqual({
        status: 400,
        code: 'OutOfRangeInput',
      });
    },
  );

  it('checks an update addressed by URL as well as an insert', async () => {
    await table.createEntity({ partitionKey: 'u', rowKey: 'r' });
    expect(
      await refusal(() =>
        table.updateEntity({ partitionKey: 'u', rowKey: 'r', s: 'a'.repeat(40_000) }, 'Replace'),
      ),
    ).toEqual({ status: 400, code: 'PropertyValueTooLarge' });
  });
});

describe('Queue and Blob limits', () => {
  const suffix = randomUUID().slice(0, 8);

  it('refuses a queue message over 64 KiB (400 MessageTooLarge) and takes 64 KiB', async () => {
    const queue = QueueServiceClient.fromConnectionString(connection()).getQueueClient(`limits-${suffix}`);
    await queue.create();
    expect(await refusal(() => queue.sendMessage('a'.repeat(64 * 1024 + 1)))).toEqual({
      status: 400,
      code: 'MessageTooLarge',
    });
    expect(await refusal(() => queue.sendMessage('a'.repeat(64 * 1024)))).toBe('accepted');
  });

  it('refuses a blob name over 1,024 characters (400 OutOfRangeInput) and takes 1,024', async () => {
    const container = BlobServiceClient.fromConnectionString(connection()).getContainerClient(
      `limits-${suffix}`,
    );
    await container.create();
    const upload = (name: string) => () => container.getBlockBlobClient(name).upload('x', 1);
    expect(await refusal(upload('n'.repeat(1025)))).toEqual({ status: 400, code: 'OutOfRangeInput' });
    expect(await refusal(upload('n'.repeat(1024)))).toBe('accepted');
  });

  it('refuses blob metadata over 8 KiB (400 MetadataTooLarge) and takes 8 KiB', async () => {
    const container = BlobServiceClient.fromConnectionString(connection()).getContainerClient(
      `meta-${suffix}`,
    );
    await container.create();
    const blob = container.getBlockBlobClient('b');
    const metadata = (bytes: number) => ({ m: 'v'.repeat(bytes - 1) });
    expect(await refusal(() => blob.upload('x', 1, { metadata: metadata(8 * 1024 + 1) }))).toEqual({
      status: 400,
      code: 'MetadataTooLarge',
    });
    expect(await refusal(() => blob.upload('x', 1, { metadata: metadata(8 * 1024) }))).toBe('accepted');
    expect(await refusal(() => blob.setMetadata(metadata(8 * 1024 + 1)))).toEqual({
      status: 400,
      code: 'MetadataTooLarge',
    });
  });
});
