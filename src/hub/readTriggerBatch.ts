import type { ReceivedEvent } from './receivedEvent';
import { describeWireValue, toSequenceNumber, toUtcTimestamp } from './triggerWireValues';

export interface TriggerBatch {
  readonly events: readonly ReceivedEvent[];
  /** Metadata problems found while reading the batch; the events are still processed. */
  readonly warnings: readonly string[];
}

/**
 * Turns what the Functions host hands a `cardinality: 'many'` Event Hubs trigger (the bodies plus the
 * camel-cased `triggerMetadata` arrays) into events with their metadata. Never drops an event: missing
 * or inconsistent metadata becomes `undefined` fields and a warning. Sequence numbers are read in every
 * shape the worker delivers 64-bit integers (number, string, Long object); one that is none of them is
 * named in a warning, never silently lost.
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
    sequenceNumber: toSequenceNumber(sequenceNumbers?.[index]),
    offset: toText(offsets?.[index]),
    enqueuedTimeUtc: toUtcTimestamp(enqueuedTimes?.[index]),
    properties: toRecord(properties?.[index]),
    systemProperties: toRecord(systemProperties?.[index]),
  }));
  warnUnreadable(warnings, 'sequenceNumberArray', sequenceNumbers, (v) => toSequenceNumber(v) !== undefined);
  warnUnreadable(warnings, 'enqueuedTimeUtcArray', enqueuedTimes, (v) => toUtcTimestamp(v) !== undefined);
  return { events, warnings: bodies.length === 0 ? [] : [...new Set(warnings)] };
}

/** One warning per column whose entries cannot be read: how many, and the shape of the first. */
function warnUnreadable(
  warnings: string[],
  name: string,
  column: readonly unknown[] | undefined,
  readable: (value: unknown) => boolean,
): void {
  if (column === undefined) return;
  const bad = column.flatMap((value, index) => (readable(value) ? [] : [{ value, index }]));
  const first = bad[0];
  if (first === undefined) return;
  warnings.push(
    `triggerMetadata.${name}: ${bad.length} of ${column.length} entries unreadable ` +
      `(first at [${first.index}]: ${describeWireValue(first.value)})`,
  );
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

function toText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function toRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
