import { AsyncLocalStorage } from 'node:async_hooks';

/** Which host instance and invocation a piece of work belongs to (the sink tags its writes with it). */
export interface InvocationScope {
  readonly instanceId: string;
  readonly invocationId: string;
}

export const invocationScope = new AsyncLocalStorage<InvocationScope>();
