import { randomInt, randomUUID } from 'node:crypto';

import type { ReceivedEvent } from '../../src/hub/receivedEvent';
import type { SensorReading } from '../../src/hub/sensorReading';
import type { ActivitySink, SinkWriteResult } from '../../src/sinks/activitySink';
import { classifyError } from '../../src/sinks/classifyError';
import { attemptWithRetry, makeEventRetryPolicy } from '../../src/sinks/eventRetry';

/** Which event's reading the downstream holds for one sensor, as your test reads it back. */
export interface HeldReading {
  readonly partitionId: string;
  readonly sequenceNumber: number;
  /** Anything that changes on every write of the record (an ETag, a revision counter): catches rewrites. */
  readonly revision?: string | number;
}

/** What the contract suite needs from your sink and its downstream (see docs/your-own-downstream.md). */
export interface SinkContractSubject {
  /** A new sink instance on the shared downstream; two calls stand for two Functions instances. */
  readonly newSink: () => ActivitySink;
  /** What the downstream holds for one sensor now, or undefined when it holds nothing. */
  readonly readBack: (homeId: string, sensorId: string) => Promise<HeldReading | undefined>;
  /** A sink of the same kind whose downstream does not answer (a closed port): the outage checks. */
  readonly newUnreachableSink?: () => ActivitySink;
  /** Makes the downstream refuse readings of this home as invalid (400/404/409/422): the event check. */
  readonly rejectHome?: (homeId: string) => void | Promise<void>;
}

/** One promise of the contract: the guarantee it protects and the check that proves it. */
export interface SinkContractCheck {
  readonly promise: string;
  readonly protects: string;
  /** What the subject must offer for the check to run; without it the check is skipped. */
  readonly needs?: 'newUnreachableSink' | 'rejectHome' | 'orderingKey';
  readonly run: (subject: SinkContractSubject) => Promise<void>;
}

/**
 * Builds a check whose failures name its promise. `seq(n)` gives each run of a check its own sequence
 * numbers, so idempotency keys (partition + sequence) never repeat across checks or runs.
 */
export function check(
  spec: Pick<SinkContractCheck, 'promise' | 'protects' | 'needs'>,
  body: (
    subject: SinkContractSubject,
    broken: (detail: string) => SinkContractViolation,
    seq: (n: number) => number,
  ) => Promise<void>,
): SinkContractCheck {
  return {
    ...spec,
    run: (s) => {
      const base = randomInt(1, 2 ** 40) * 1000;
      return body(
        s,
        (detail) => new SinkContractViolation(spec.promise, spec.protects, detail),
        (n) => base + n,
      );
    },
  };
}

/** A broken promise; the message names it, so a failing test says which promise and why it matters. */
export class SinkContractViolation extends Error {
  readonly code = 'SINK_CONTRACT_VIOLATION';
  override readonly name = 'SinkContractViolation';
  constructor(
    readonly promise: string,
    protects: string,
    detail: string,
  ) {
    super(`sink contract: promise "${promise}" is broken (it protects ${protects}): ${detail}`);
  }
}
export const isSinkContractViolation = (e: unknown): e is SinkContractViolation =>
  e instanceof SinkContractViolation;

/** The one place the suite reads the classifier: outage-like holds the batch, the rest is this event's. */
export const isOutageLike = (error: unknown) => classifyError(error) === 'transient';
export const T0 = Date.UTC(2026, 0, 1);
export const BOUND_MS = 10_000;

export function reading(homeId: string, sensorId: string, second: number, state: SensorReading['state']) {
  const occurredAt = new Date(T0 + second * 1000).toISOString();
  return { homeId, sensorId, kind: 'contact', state, occurredAt } satisfies SensorReading;
}

export function event(r: SensorReading, sequenceNumber: number, partitionId = '3'): ReceivedEvent {
  return {
    index: 0,
    body: Buffer.from(JSON.stringify(r)),
    partitionId,
    sequenceNumber,
    offset: String(sequenceNumber * 100),
    enqueuedTimeUtc: r.occurredAt,
    properties: {},
    systemProperties: {},
  };
}

/** A write as a production invocation makes it: bounded, retried on outage-like errors only. */
export async function deliver(
  sink: ActivitySink,
  r: SensorReading,
  e: ReceivedEvent,
): Promise<SinkWriteResult> {
  const policy = makeEventRetryPolicy({ maxAttempts: 10, initialDelayMs: 1, maxDelayMs: 20 });
  const result = await attemptWithRetry(policy, BOUND_MS, (signal) => sink.write(r, e, signal));
  if (!result.ok) throw result.error;
  return result.value;
}

export const held = (h: HeldReading | undefined) =>
  h
    ? `p${h.partitionId}/s${h.sequenceNumber}${h.revision === undefined ? '' : ` rev ${h.revision}`}`
    : 'nothing';

/** Runs `fn`; returns what it threw, or fails the promise when it resolved. */
export async function failureOf(
  violation: (detail: string) => Error,
  what: string,
  fn: () => Promise<unknown>,
) {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw violation(`${what} resolved; it must throw`);
}

export const home = (label: string) => `ct-${label}-${randomUUID().slice(0, 8)}`;

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { statusCode, code } = error as { statusCode?: unknown; code?: unknown };
  const tags = [
    typeof statusCode === 'number' ? `statusCode ${statusCode}` : '',
    typeof code === 'string' ? `code ${code}` : '',
  ];
  return `${error.name}: ${error.message.slice(0, 200)}${tags.some(Boolean) ? ` (${tags.filter(Boolean).join(', ')})` : ''}`;
}
