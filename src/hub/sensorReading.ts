import { z } from 'zod';

/**
 * One reading published by a home-security sensor. Producers use `homeId` as the Event Hubs
 * partition key, so every reading of one home lands in one partition, in order.
 */
export const sensorReadingSchema = z.strictObject({
  homeId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ or -, at most 64'),
  sensorId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ or -, at most 64'),
  kind: z.enum(['motion', 'contact', 'glassBreak', 'smoke', 'co']),
  /** What the sensor reports now: e.g. motion detected/clear, contact open/closed, alarm/ok. */
  state: z.enum(['detected', 'clear', 'open', 'closed', 'alarm', 'ok']),
  occurredAt: z.iso.datetime({ offset: true }),
  batteryPercent: z.number().int().min(0).max(100).optional(),
});

export type SensorReading = z.infer<typeof sensorReadingSchema>;
