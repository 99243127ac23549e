import type { Refusal } from './serviceErrors';
import { storageLimits } from './storageLimits';
import { checkEntity } from './tableLimits';
import { parseTransaction } from './transactionRequest';

/** What is wrong with a transaction: the whole request, or one operation (its index in the change set). */
export type TransactionRefusal =
  | { readonly scope: 'request'; readonly refusal: Refusal }
  | { readonly scope: 'operation'; readonly index: number; readonly refusal: Refusal };

/**
 * A `$batch` body against the entity group transaction rules: at most 100 operations and 4 MiB, one
 * PartitionKey, each row once, and every entity within the entity limits.
 */
export function checkTransaction(body: Buffer): TransactionRefusal | undefined {
  if (body.length > storageLimits.transactionBytes)
    return {
      scope: 'request',
      refusal: {
        status: 413,
        code: 'RequestBodyTooLarge',
        message: 'The request body is too large and exceeds the maximum permissible limit.',
      },
    };
  const operations = parseTransaction(body.toString('utf8'));
  if (typeof operations === 'string')
    return {
      scope: 'request',
      refusal: {
        status: 400,
        code: 'InvalidInput',
        message: `The batch request is malformed: ${operations}.`,
      },
    };
  if (operations.length > storageLimits.transactionOperations)
    return {
      scope: 'request',
      refusal: {
        status: 400,
        code: 'InvalidInput',
        message: `The batch request operation exceeds the maximum ${storageLimits.transactionOperations} changes per change set.`,
      },
    };
  let partition: string | undefined;
  const rows = new Set<string>();
  for (const [index, op] of operations.entries()) {
    const partitionKey = stringOr(op.entity?.PartitionKey, op.urlKeys.partitionKey);
    const rowKey = stringOr(op.entity?.RowKey, op.urlKeys.rowKey);
    const entityRefusal = op.entity ? checkEntity(op.entity, op.urlKeys) : undefined;
    if (entityRefusal) return { scope: 'operation', index, refusal: entityRefusal };
    partition ??= partitionKey;
    if (partitionKey !== partition)
      return {
        scope: 'operation',
        index,
        refusal: {
          status: 400,
          code: 'CommandsInBatchActOnDifferentPartitions',
          message: 'All commands in a batch must operate on same entity group.',
        },
      };
    if (rowKey !== undefined && rows.has(rowKey))
      return {
        scope: 'operation',
        index,
        refusal: {
          status: 400,
          code: 'InvalidDuplicateRow',
          message: `A command with RowKey '${rowKey.slice(0, 80)}' is already present in the batch. An entity can appear only once in a batch.`,
        },
      };
    if (rowKey !== undefined) rows.add(rowKey);
  }
  return undefined;
}

const stringOr = (value: unknown, fallback: string | undefined) =>
  typeof value === 'string' ? value : fallback;
