/** The logging surface handlers use; an InvocationContext fits it. */
export interface Logger {
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export const silentLogger: Logger = { log: () => undefined, warn: () => undefined, error: () => undefined };
