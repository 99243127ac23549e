/** What a DurableHost runs (one orchestration instance) and what it asks of the worker around it. */
export type Runtime = 'Running' | 'Completed' | 'Failed' | 'Terminated';

export interface DurableHostOptions {
  readonly orchestrator: string;
  readonly instanceId: string;
  readonly input: unknown;
  /** Start of the controllable clock (ms since the epoch). */
  readonly startAt: number;
  /**
   * The worker's generation (it changes when the host restarts). An activity whose run spans a change
   * was killed with the worker: its result never reaches the history and it runs again later.
   */
  readonly workerGeneration?: () => string | number;
  /** Resolves once the worker has its functions registered (after a restart loads the app again). */
  readonly appReady?: () => Promise<void>;
}
