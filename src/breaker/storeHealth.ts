import { emitEvent } from '../kernel/appEvent';
import type { Clock } from '../kernel/clock';
import type { Logger } from '../kernel/logger';

/** Reachability of the breaker store, for the status page (G6). */
export interface StoreHealth {
  readonly ok: boolean;
  /** Message of the most recent failed call, kept after recovery for the status page. */
  readonly lastError: string | undefined;
  /** When the current status (ok or not) began; undefined before the first call. */
  readonly since: number | undefined;
  /** Failed calls in the current outage. */
  readonly failedCalls: number;
}

export interface StoreHealthTracker {
  succeeded(): void;
  failed(operation: string, error: unknown): void;
  health(): StoreHealth;
}

/**
 * Tracks store outages and logs them once per interval, not per call: the first failure, then at most
 * one reminder per `logIntervalMs` with the number of failed calls, then the recovery.
 */
export function makeStoreHealthTracker(
  clock: Clock,
  logger: Logger,
  logIntervalMs: number,
): StoreHealthTracker {
  let ok = true;
  let since: number | undefined;
  let lastError: string | undefined;
  let failedCalls = 0;
  let lastLogAt = 0;
  let sinceLog = 0;

  return {
    succeeded() {
      const now = clock.now();
      if (!ok) {
        logger.log(
          `breaker store reachable again after ${now - (since ?? now)} ms (${failedCalls} failed call(s)); the shared breaker is back in force`,
        );
      }
      if (!ok || since === undefined) since = now;
      ok = true;
      failedCalls = 0;
    },
    failed(operation, error) {
      const now = clock.now();
      lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      failedCalls++;
      if (ok) {
        ok = false;
        since = now;
        lastLogAt = now;
        sinceLog = 0;
        logger.error(
          `breaker store unavailable (${operation}: ${lastError}); processing continues with the breaker reported closed and failures dead-lettered`,
        );
        emitEvent(logger, 'warn', 'storeUnavailable', { operation, failedCalls });
        return;
      }
      sinceLog++;
      if (now - lastLogAt >= logIntervalMs) {
        logger.error(
          `breaker store still unavailable for ${now - (since ?? now)} ms: ${sinceLog} more failed call(s), last ${operation}: ${lastError}`,
        );
        emitEvent(logger, 'warn', 'storeUnavailable', { operation, failedCalls });
        lastLogAt = now;
        sinceLog = 0;
      }
    },
    health: () => ({ ok, lastError, since, failedCalls }),
  };
}
