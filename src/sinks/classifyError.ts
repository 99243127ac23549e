import { TaskCancelledError } from 'cockatiel';

import { PoisonEventError } from '../hub/errors';
import { SinkConflictError, TransientSinkError } from './errors';

/** Whether a failure is worth another attempt of the same event now (the per-event retry). */
export type FailureKind = 'transient' | 'permanent';

/**
 * Whom a failure is about. `outage`: any event would fail the same way now, so the batch is held behind
 * the checkpoint and an outage dead-letters nothing. `event`: this event itself was refused, so it is
 * dead-lettered.
 */
export const failureScopes = ['outage', 'event'] as const;
export type FailureScope = (typeof failureScopes)[number];

export interface FailureClass {
  readonly kind: FailureKind;
  readonly scope: FailureScope;
  /** Which rule of the list below decided, for logs and dead letters. */
  readonly rule: string;
}

interface Facts {
  readonly status: number | undefined;
  readonly code: string | undefined;
  /** The storage service's error code: `code`, or the Table service's `odata.error` code. */
  readonly serviceCode: string | undefined;
  readonly name: string | undefined;
  readonly error: unknown;
}

const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'REQUEST_SEND_ERROR',
]);
const timeoutNames = new Set(['AbortError', 'TimeoutError']);

/**
 * Error codes with which the storage services refuse a request as built (a query over 15 comparisons,
 * a transaction over 100 operations or 4 MiB, a key with a forbidden character, an entity, property,
 * message or metadata over its size): the app built it, so every event would be refused alike until
 * the app is fixed. Table, Blob and Queue codes (sim/README.md lists the limits behind them).
 */
export const invalidRequestCodes: ReadonlySet<string> = new Set([
  'InvalidInput',
  'OutOfRangeInput',
  'KeyValueTooLarge',
  'PropertyValueTooLarge',
  'EntityTooLarge',
  'TooManyProperties',
  'RequestBodyTooLarge',
  'InvalidDuplicateRow',
  'CommandsInBatchActOnDifferentPartitions',
  'PropertyNameInvalid',
  'PropertyNameTooLong',
  'DuplicatePropertiesSpecified',
  'InvalidValueType',
  'MessageTooLarge',
  'MetadataTooLarge',
  'InvalidResourceName',
  'InvalidQueryParameterValue',
  'InvalidHeaderValue',
  'InvalidXmlDocument',
  'InvalidUri',
]);

/**
 * THE list, first match wins, each with its reason. Causes are followed (depth 5), so a wrapped network
 * error is still a network error. An HTTP sink (statusCode on its errors) is classified by status alone.
 */
const rules: readonly (FailureClass & { readonly test: (f: Facts) => boolean })[] = [
  // The event can never be processed as it is: not JSON, wrong schema, or the sink calls it invalid.
  { rule: 'poison', kind: 'permanent', scope: 'event', test: (f) => f.error instanceof PoisonEventError },
  // Two writers kept changing this event's row: about this event's key, not the downstream.
  { rule: 'conflict', kind: 'transient', scope: 'event', test: (f) => f.error instanceof SinkConflictError },
  // The downstream is slow: a call timed out or the batch deadline passed; every event would wait alike.
  {
    rule: 'timeout',
    kind: 'transient',
    scope: 'outage',
    test: (f) => f.error instanceof TaskCancelledError || (f.name !== undefined && timeoutNames.has(f.name)),
  },
  // A sink says "busy, try again" without a status code.
  { rule: 'busy', kind: 'transient', scope: 'outage', test: (f) => f.error instanceof TransientSinkError },
  // 408 request timeout, 429 throttling, 5xx server errors: the downstream, not the event.
  {
    rule: 'http-unavailable',
    kind: 'transient',
    scope: 'outage',
    test: (f) => f.status !== undefined && (f.status === 408 || f.status === 429 || f.status >= 500),
  },
  // Authentication or authorisation refused: a credential problem refuses every event alike. Retrying
  // the same event at once will not help; holding the batch until someone fixes the credential will.
  {
    rule: 'http-auth-refused',
    kind: 'permanent',
    scope: 'outage',
    test: (f) => f.status === 401 || f.status === 403 || f.status === 407,
  },
  // The storage service refused the request as the app built it: the app's fault, not the event's.
  // Held like an outage (and logged loudly by the processor) so no event is dead-lettered for it.
  {
    rule: 'request-invalid',
    kind: 'permanent',
    scope: 'outage',
    test: (f) =>
      (f.status === 400 || f.status === 413) &&
      f.serviceCode !== undefined &&
      invalidRequestCodes.has(f.serviceCode),
  },
  // Any other HTTP status the sink raises (400, 404, 409, 412, 413, 422, ...) names this event.
  { rule: 'http-rejected', kind: 'permanent', scope: 'event', test: (f) => f.status !== undefined },
  // The downstream cannot be reached at all.
  {
    rule: 'network',
    kind: 'transient',
    scope: 'outage',
    test: (f) => f.code !== undefined && networkCodes.has(f.code),
  },
];

/**
 * Anything the list does not recognise (a bug, a non-error): not retried per event, but held like an
 * outage. Dead-lettering it at once would let a bug that hits every event empty the stream into dead
 * letters; held, it is dead-lettered only once it proves to be about one event (the isolation rule).
 */
const unrecognised: FailureClass = { rule: 'unrecognised', kind: 'permanent', scope: 'outage' };

/** The one place that decides what a failure means: retry it, hold the batch, or dead-letter the event. */
export function classifyFailure(error: unknown): FailureClass {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const facts = factsOf(current);
    const match = rules.find((r) => r.test(facts));
    if (match) return { kind: match.kind, scope: match.scope, rule: match.rule };
    if (typeof current !== 'object') break;
    current = (current as { cause?: unknown }).cause;
  }
  return unrecognised;
}

function factsOf(error: unknown): Facts {
  if (typeof error !== 'object' || error === null)
    return { status: undefined, code: undefined, serviceCode: undefined, name: undefined, error };
  const { statusCode, status, code, name, details } = error as Record<string, unknown>;
  const odataCode = (details as { odataError?: { code?: unknown } } | undefined)?.odataError?.code;
  return {
    status: typeof statusCode === 'number' ? statusCode : typeof status === 'number' ? status : undefined,
    code: typeof code === 'string' ? code : undefined,
    serviceCode: typeof code === 'string' ? code : typeof odataCode === 'string' ? odataCode : undefined,
    name: typeof name === 'string' ? name : undefined,
    error,
  };
}

/** Whether the per-event retry should try the same event again. */
export const classifyError = (error: unknown): FailureKind => classifyFailure(error).kind;
export const isTransient = (error: unknown): boolean => classifyError(error) === 'transient';
/** The storage service's error code of a failure (for the log of a refused request), if it has one. */
export function serviceCodeOf(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const { serviceCode } = factsOf(current);
    if (serviceCode !== undefined) return serviceCode;
    if (typeof current !== 'object') break;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
