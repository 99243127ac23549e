import type { Refusal } from './serviceErrors';
import { forbiddenKeyCharacters, storageLimits } from './storageLimits';

/** The comparisons of a `$filter` (string literals, where `eq` may appear as text, left out). */
export function countComparisons(filter: string): number {
  const outsideLiterals = filter.replace(/'(?:[^']|'')*'/g, "''");
  return outsideLiterals.match(/\b(?:eq|ne|gt|ge|lt|le)\b/gi)?.length ?? 0;
}

export function checkFilter(filter: string): Refusal | undefined {
  const comparisons = countComparisons(filter);
  if (comparisons <= storageLimits.filterComparisons) return undefined;
  return {
    status: 400,
    code: 'InvalidInput',
    message: `One of the request inputs is not valid. (${comparisons} comparisons in $filter; at most ${storageLimits.filterComparisons})`,
  };
}

/** One PartitionKey or RowKey against the key rules. */
export function checkKey(name: 'PartitionKey' | 'RowKey', value: unknown): Refusal | undefined {
  if (typeof value !== 'string')
    return { status: 400, code: 'PropertiesNeedValue', message: `${name} is missing or not a string.` };
  if (value.length * 2 > storageLimits.keyBytes)
    return {
      status: 400,
      code: 'KeyValueTooLarge',
      message: `The ${name} value exceeds the maximum allowed size (1 KiB).`,
    };
  if (forbiddenKeyCharacters.test(value))
    return {
      status: 400,
      code: 'OutOfRangeInput',
      message: `The '${name}' parameter of value '${printable(value)}' is out of range.`,
    };
  return undefined;
}

const SYSTEM = new Set(['PartitionKey', 'RowKey', 'Timestamp']);
const isAnnotation = (name: string) => name.includes('@') || name.startsWith('odata.');

/**
 * An entity as the Table service's JSON carries it, against the entity limits. Keys come from the body
 * or, for an update addressed by URL, from `keys`. Size follows the service's estimate: 4 bytes, the
 * keys at 2 bytes a character, and per property 8 bytes, its name at 2 bytes a character and its value.
 */
export function checkEntity(
  entity: Record<string, unknown>,
  keys: { readonly partitionKey?: string; readonly rowKey?: string } = {},
): Refusal | undefined {
  const partitionKey = entity.PartitionKey ?? keys.partitionKey;
  const rowKey = entity.RowKey ?? keys.rowKey;
  const keyRefusal = checkKey('PartitionKey', partitionKey) ?? checkKey('RowKey', rowKey);
  if (keyRefusal) return keyRefusal;
  if (typeof partitionKey !== 'string' || typeof rowKey !== 'string') return undefined;
  const names = Object.keys(entity).filter((n) => !isAnnotation(n) && !SYSTEM.has(n));
  if (names.length + SYSTEM.size > storageLimits.entityProperties)
    return {
      status: 400,
      code: 'TooManyProperties',
      message: 'The entity contains more properties than allowed.',
    };
  let size = 4 + (partitionKey.length + rowKey.length) * 2;
  for (const name of names) {
    const valueSize = sizeOf(entity[name], entity[`${name}@odata.type`]);
    if (valueSize > storageLimits.propertyBytes + 4)
      return {
        status: 400,
        code: 'PropertyValueTooLarge',
        message: `The property value exceeds the maximum allowed size (64KB). If the property value is a string, it is UTF-16 encoded and the maximum number of characters should be 32K or less. (property '${printable(name)}')`,
      };
    size += 8 + name.length * 2 + valueSize;
  }
  if (size > storageLimits.entityBytes)
    return {
      status: 400,
      code: 'EntityTooLarge',
      message: 'The entity is larger than the maximum size permitted.',
    };
  return undefined;
}

/** A value's size as the service counts it (strings and binaries with their 4-byte length). */
function sizeOf(value: unknown, type: unknown): number {
  if (type === 'Edm.Binary' && typeof value === 'string') return Buffer.from(value, 'base64').length + 4;
  if (typeof value === 'string') {
    if (type === 'Edm.Guid') return 16;
    if (type === 'Edm.Int64' || type === 'Edm.DateTime') return 8;
    return value.length * 2 + 4;
  }
  if (typeof value === 'boolean') return 1;
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? 4 : 8;
  return 0;
}

/** A key or name for a message: control characters shown as escapes, long ones cut. */
function printable(text: string): string {
  const shown = text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return shown.length > 80 ? `${shown.slice(0, 80)}…` : shown;
}
