import { z } from 'zod';

import { deadLetterReasons } from './deadLetter';
import { InvalidDeadLetterMessageError } from './errors';

/**
 * What the dead-letter queue carries (version 1): everything needed to find, understand and replay one
 * event. The one schema: the dead-letter store writes this type, the redrive parses it.
 */
const deadLetterMessageFields = {
  version: z.literal(1),
  functionName: z.string(),
  blobName: z.string().min(1),
  bodyBytes: z.number().int().min(0),
  partitionId: z.string().nullable(),
  offset: z.string().nullable(),
  sequenceNumber: z.number().int().nullable(),
  enqueuedTimeUtc: z.string().nullable(),
  /** Application properties; moved to `propertiesBlobName` when they would not fit in a queue message. */
  properties: z.record(z.string(), z.unknown()).optional(),
  propertiesBlobName: z.string().optional(),
  reason: z.enum(deadLetterReasons),
  error: z.object({ name: z.string(), code: z.string().optional(), message: z.string() }),
  attempts: z.number().int().min(0),
  deadLetteredAt: z.string(),
  invocationId: z.string(),
};

export type DeadLetterMessage = Readonly<z.output<z.ZodObject<typeof deadLetterMessageFields>>>;

/** Unknown extra fields are kept, so a newer writer's message still redrives. */
export const deadLetterMessageSchema = z.looseObject(deadLetterMessageFields);

/** The queue trigger hands over parsed JSON (or text when it is not JSON): accept both. */
export function parseDeadLetterMessage(input: unknown): DeadLetterMessage {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw new InvalidDeadLetterMessageError('queue message is not JSON');
    }
  }
  const parsed = deadLetterMessageSchema.safeParse(value);
  if (!parsed.success) {
    const details = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new InvalidDeadLetterMessageError(`queue message is not a dead letter: ${details}`);
  }
  // JSON drops `code: undefined`, so the parsed error may lack the key the type lists.
  const { error, ...rest } = parsed.data;
  return {
    ...rest,
    error: { name: error.name, code: error.code, message: error.message },
  };
}
