import { type Message, message as amqpMessage, types } from 'rhea';

import type { StoredEvent } from './partitionStore';

/** AMQP message format of an Event Hubs batch: one envelope whose data sections are encoded messages. */
export const BATCH_FORMAT = 0x80013700;

/** One event as a producer sent it. */
export interface IncomingEvent {
  readonly body: Buffer;
  readonly properties: Record<string, unknown>;
  readonly partitionKey: string | undefined;
}

/** Thrown for a transfer the peer cannot read; the delivery is rejected with this text. */
export class BadTransferError extends Error {
  override readonly name = 'BadTransferError';
}

/**
 * The events of one transfer: a batch envelope (format 0x80013700) or a single message (format 0).
 * The partition key travels in the message annotation `x-opt-partition-key`.
 */
export function decodeTransfer(payload: Buffer | Message, format: number | undefined): IncomingEvent[] {
  if (!Buffer.isBuffer(payload)) return [toIncoming(payload)];
  if (format !== BATCH_FORMAT) throw new BadTransferError(`unsupported message format ${String(format)}`);
  const envelope = decode(payload);
  return dataSections(envelope.body).map((section) => toIncoming(decode(section)));
}

/** rhea's typings give `decode` a different Message type than the one its links carry. */
const decode = (bytes: Buffer) => amqpMessage.decode(bytes) as unknown as Message;

/** rhea decodes data sections as one Section whose content is a Buffer, or an array of them. */
function dataSections(body: unknown): Buffer[] {
  const content = (body as { content?: unknown } | null)?.content;
  const list = Array.isArray(content) ? (content as unknown[]) : [content];
  return list.map((section) => {
    if (!Buffer.isBuffer(section)) throw new BadTransferError('batch envelope without data sections');
    return section;
  });
}

function toIncoming(m: {
  body?: unknown;
  message_annotations?: unknown;
  application_properties?: unknown;
}): IncomingEvent {
  const annotations = (m.message_annotations ?? {}) as Record<string, unknown>;
  const key = annotations['x-opt-partition-key'];
  return {
    body: bodyBytes(m.body),
    properties: { ...((m.application_properties ?? {}) as Record<string, unknown>) },
    partitionKey: typeof key === 'string' ? key : undefined,
  };
}

function bodyBytes(body: unknown): Buffer {
  const content = (body as { content?: unknown } | null)?.content ?? body;
  if (Buffer.isBuffer(content)) return content;
  if (typeof content === 'string') return Buffer.from(content);
  return Buffer.from(JSON.stringify(content ?? null));
}

/** An event as a receive link delivers it: body as one data section, the service's annotations. */
export function toDelivery(event: StoredEvent): Message {
  return {
    body: amqpMessage.data_section(event.body) as unknown,
    application_properties: { ...event.properties },
    message_annotations: {
      'x-opt-sequence-number': types.wrap_long(event.sequenceNumber),
      'x-opt-offset': event.offset,
      'x-opt-enqueued-time': new Date(event.enqueuedTimeUtc),
    },
  };
}

/**
 * The first sequence number a receive link should deliver, from its selector filter
 * (`amqp.annotation.x-opt-sequence-number > '41'`, `>=`, or `x-opt-offset > '-1'` for the start).
 * Throws BadTransferError for a filter the peer does not implement (enqueued time, other offsets).
 */
export function firstSequenceOf(
  filterText: string | undefined,
  offsetToSequence: (offset: string) => number,
) {
  if (filterText === undefined) return 0;
  const match = /^amqp\.annotation\.x-opt-(sequence-number|offset)\s*(>=|>)\s*'([^']*)'$/.exec(
    filterText.trim(),
  );
  if (!match) throw new BadTransferError(`unsupported receive filter: ${filterText.slice(0, 120)}`);
  const [, field, op, value = ''] = match;
  const inclusive = op === '>=';
  if (field === 'offset') {
    if (value === '-1') return 0;
    if (value === '@latest') return Number.POSITIVE_INFINITY;
    const sequence = offsetToSequence(value);
    return inclusive ? sequence : sequence + 1;
  }
  const sequence = Number(value);
  if (!Number.isSafeInteger(sequence)) throw new BadTransferError(`bad sequence number in filter: ${value}`);
  return inclusive ? sequence : sequence + 1;
}
