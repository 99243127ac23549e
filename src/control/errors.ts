/**
 * Typed failures of a trigger switch. `retryable` tells the orchestration's activity whether to
 * throw (so callActivityWithRetry tries again) or to report the failure as a value and move on.
 */
export abstract class TriggerSwitchError extends Error {
  abstract readonly code: string;
  abstract readonly retryable: boolean;
}

/** 401/403 from ARM: retrying cannot help until someone grants the role named in the message. */
export class TriggerSwitchPermissionError extends TriggerSwitchError {
  readonly code = 'TRIGGER_SWITCH_PERMISSION';
  readonly retryable = false;
  override readonly name = 'TriggerSwitchPermissionError';
  constructor(
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
  }
}

/** Throttling (429), server errors (5xx), timeouts or network failures: worth another attempt. */
export class TriggerSwitchTransientError extends TriggerSwitchError {
  readonly code = 'TRIGGER_SWITCH_TRANSIENT';
  readonly retryable = true;
  override readonly name = 'TriggerSwitchTransientError';
  constructor(
    message: string,
    readonly statusCode: number | undefined,
  ) {
    super(message);
  }
}

/**
 * The read-back after the write did not match what was written: our value is missing or other
 * settings differ, i.e. another writer interleaved with ours. A retry re-reads and re-merges.
 */
export class TriggerSwitchVerificationError extends TriggerSwitchError {
  readonly code = 'TRIGGER_SWITCH_VERIFY_FAILED';
  readonly retryable = true;
  override readonly name = 'TriggerSwitchVerificationError';
  constructor(
    message: string,
    /** Names (never values: settings hold secrets) of the settings that differ. */
    readonly differingSettings: readonly string[],
  ) {
    super(message);
  }
}

/** Any other ARM answer (404 app not found, 400): a configuration problem, not worth retrying. */
export class TriggerSwitchRequestError extends TriggerSwitchError {
  readonly code = 'TRIGGER_SWITCH_FAILED';
  readonly retryable = false;
  override readonly name = 'TriggerSwitchRequestError';
  constructor(
    message: string,
    readonly statusCode: number | undefined,
  ) {
    super(message);
  }
}

export const isTriggerSwitchError = (e: unknown): e is TriggerSwitchError => e instanceof TriggerSwitchError;
