/** What a DurableHost runs (one orchestration instance) and what it asks of the worker around it. */
export type Runtime = 'Running' | 'Completed' | 'Failed' | 'Terminated';

export interface DurableHostOptions {
  readonly orchestrator: string;
  readonly instanceId: string;
  readonly input: unknown;
  /**
   * The version the instance is started with; default host.json's defaultVersion, as the extension
   * stamps it on a start that names none (null: unversioned).
   */
  readonly version?: string | null;
  /** Start of the controllable clock (ms since the epoch). */
  readonly startAt: number;
  /**
   * The worker's generation (it changes when the host restarts). An activity whose run spans a change
   * was killed with the worker: its result never reaches the history and it runs again later.
   */
  readonly workerGeneration?: () => string | number;
  /** Resolves once the worker has its functions registered (after a restart loads the app again). */
  readonly appReady?: () => Promise<void>;
  /** How much later (or, negative, earlier) than its FireAt each timer fires; default 0. */
  readonly timerSkewMs?: () => number;
  /**
   * The order of a TimerFired and an EventRaised that reach one episode together: not guaranteed on
   * Azure Storage. Default as they arrived (raised events first when raised before the clock moved).
   */
  readonly timersFirst?: () => boolean;
  /** The worker's timeline around a restart that takes its time (see `DurableWorker`). */
  readonly worker?: DurableWorker;
}

/** The notional time an activity run spans on the worker, in virtual ms. */
export interface ActivitySpan {
  readonly start: number;
  readonly end: number;
}

/**
 * The worker as a restart after a settings write sees it: the old one keeps running activities until
 * the restart lands, then dies with whatever it was running; a killed activity's message comes back
 * only after its visibility timeout.
 */
export interface DurableWorker {
  /** Where the next activity run falls, or `down` while the worker is dead (restart not done). */
  begin(): ActivitySpan | 'down';
  /** Whether the restart landed inside this run (it was killed after doing its work). */
  killedDuring(span: ActivitySpan): boolean;
  /** When a run killed now is delivered again (its queue message becomes visible). */
  redeliverAt(): number;
  now(): number;
}
