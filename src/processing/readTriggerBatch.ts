import type { ReceivedEvent } from './receivedEvent';

export interface TriggerBatch {
  readonly events: readonly ReceivedEvent[];
  /** Metadata problems found while reading the batch; the events are still processed. */
  readonly warnings: readonly string[];
}

/**
 * Turns what the Functions host hands a `cardinality: 'many'` Event Hubs trigger (the bodies plus the
 * camel-cased `triggerMetadata` arrays) into events with their metadata. Never drops an event: missing
 * or inconsistent metadata becomes `undefined` fields and a warning.
 */
export function readTriggerBatch(
  messages: unknown,
  triggerMetadata: Record<string, unknown> | undefined,
): TriggerBatch {
  const warnings: string[] = [];
  const bodies = Array.isArray(messages) ? messages : [messages];
  if (!Array.isArray(messages)) warnings.push('trigger input was not an array: is cardinality "many" set?');
  const meta = triggerMetadata ?? {};
  const partitionId = readPartitionId(meta.partitionContext);
  if (partitionId === undefined) warnings.push('triggerMetadata.partitionContext.partitionId is missing');

  const column = (name: string): unknown[] | undefined => {
    const value = meta[name];
    if (!Array.isArray(value)) {
      warnings.push(`triggerMetadata.${name} is missing`);
      return undefined;
    }
    if (value.length !== bodies.length) {
      warnings.push(`triggerMetadata.${name} has ${value.length} entries for ${bodies.length} events`);
      return undefined;
    }
    return value as unknown[];
  };
  const sequenceNumbers = column('sequenceNumberArray');
  const offsets = column('offsetArray');
  const enqueuedTimes = column('enqueuedTimeUtcArray');
  const properties =
    meta.propertiesArray === undefined && bodies.length === 0 ? [] : column('propertiesArray');
  const systemProperties =
    meta.systemPropertiesArray === undefined && bodies.length === 0 ? [] : column('systemPropertiesArray');

  const events = bodies.map((body, index): ReceivedEvent => ({
    index,
    body: toBuffer(body),
    partitionId,
    sequenceNumber: toInteger(sequenceNumbers?.[index]),
    offset: toText(offsets?.[index]),
    enqueuedTimeUtc: toTimestamp(enqueuedTimes?.[index]),
    properties: toRecord(properties?.[index]),
    systemProperties: toRecord(systemProperties?.[index]),
  }));
  return { events, warnings: bodies.length === 0 ? [] : [...new Set(warnings)] };
}

function readPartitionId(context: unknown): string | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  return toText((context as Record<string, unknown>).partitionId);
}

/** The host sends bytes for `dataType: 'binary'`; strings or parsed JSON are accepted as a fallback. */
function toBuffer(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  // Parsed JSON (the host's default conversion); undefined/null have no body at all.
  if (body === undefined || body === null) return Buffer.alloc(0);
  return Buffer.from(JSON.stringify(body), 'utf8');
}

function toInteger(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function toText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function toTimestamp(value: unknown): string | undefined {
  const text = value instanceof Date ? value.toISOString() : toText(value);
  if (text === undefined) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function toRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
