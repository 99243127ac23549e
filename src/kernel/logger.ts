/** The logging surface handlers use; an InvocationContext fits it. */
export interface Logger {
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  /** The function whose invocation logs (an InvocationContext has it): the `function` dimension of events. */
  readonly functionName?: string;
}

export const silentLogger: Logger = { log: () => undefined, warn: () => undefined, error: () => undefined };
