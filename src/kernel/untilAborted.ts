import { ensureError } from './ensureError';

/**
 * Settles with `work`, or rejects with the signal's reason once it aborts, whichever comes first. For
 * clients that take a signal but may not honour it in every state (a connection that never opens):
 * the caller's bound holds either way. The abandoned promise's later rejection is swallowed.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(ensureError(signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(ensureError(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(ensureError(error));
      },
    );
  });
}
