import { boundText } from '../kernel/boundText';
import { PoisonEventError } from './errors';
import { type ReadingTimeRule, refuseFutureReading } from './readingTime';
import type { ReceivedEvent } from './receivedEvent';
import { type SensorReading, sensorReadingSchema } from './sensorReading';

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Longest quote of the event one problem may carry into an error message. */
const ISSUE_LENGTH = 200;

/** Decodes and validates one event body. Throws PoisonEventError saying exactly what is wrong. */
export function decodeReading(body: Buffer): SensorReading {
  if (body.length === 0) throw new PoisonEventError('body is empty');
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new PoisonEventError(`body is not UTF-8 text (${body.length} bytes)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // V8 quotes the body in its message: bounded, like every text built from the event.
    throw new PoisonEventError(`body is not JSON: ${boundText((error as Error).message, ISSUE_LENGTH)}`);
  }
  const parsed = sensorReadingSchema.safeParse(json);
  if (!parsed.success) {
    const details = parsed.error.issues
      .slice(0, 5)
      // Issues quote the event (an unknown key in full): each is bounded and stripped of control characters.
      .map((issue) => boundText(`${issue.path.join('.') || '(root)'}: ${issue.message}`, ISSUE_LENGTH))
      .join('; ');
    throw new PoisonEventError(`body is not a sensor reading: ${details}`);
  }
  return parsed.data;
}

/** Decodes one event's body and refuses a reading dated too far ahead of the event (`readingTime.ts`). */
export function decodeEvent(event: ReceivedEvent, rule: ReadingTimeRule): SensorReading {
  const reading = decodeReading(event.body);
  refuseFutureReading(reading, event, rule);
  return reading;
}
