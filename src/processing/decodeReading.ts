import { PoisonEventError } from './errors';
import { type SensorReading, sensorReadingSchema } from './sensorReading';

const utf8 = new TextDecoder('utf-8', { fatal: true });

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
    throw new PoisonEventError(`body is not JSON: ${(error as Error).message}`);
  }
  const parsed = sensorReadingSchema.safeParse(json);
  if (!parsed.success) {
    const details = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new PoisonEventError(`body is not a sensor reading: ${details}`);
  }
  return parsed.data;
}
