import type { AppClient } from './appClient';
import type { PublishPhase, VerifyPlan } from './plan';
import type { Milestones } from './report';
import type { Restorer } from './stopGuard';
import type { VerifyTarget } from './target';

export interface RunSettings {
  readonly events: number;
  readonly poisonEvery: number;
  readonly homes: number;
  readonly faultMinutes: number;
  readonly stageTimeoutMs: number;
  readonly approver: string;
  /** Fixed in tests; random otherwise. */
  readonly run?: string;
}

export interface RunDeps {
  readonly print: (line: string) => void;
  readonly signal: AbortSignal;
  /** Called after each milestone (a test interrupts the run there). */
  readonly onMilestone?: (name: keyof Milestones) => void;
  /** Given the run's restore as soon as the run starts (the stop guard restores with it if it must). */
  readonly onRestorer?: (restorer: Restorer) => void;
}

/** What the run changed so far: the cleanup undoes exactly that, and nothing it found. */
export interface Changes {
  faultSwitchEnabled: boolean;
  faultSet: boolean;
}

/** Shared by the steps of one run. */
export interface RunContext {
  readonly target: VerifyTarget;
  readonly client: AppClient;
  readonly plan: VerifyPlan;
  readonly settings: RunSettings;
  readonly print: (line: string) => void;
  /** Aborted when the run is told to stop (stopGuard.ts). */
  readonly signal: AbortSignal;
  /** Who the app's logs and records name for this run's changes. */
  readonly by: string;
  /** Dead letters older than this (wall clock) are not the run's. */
  readonly wallSince: Date;
  readonly milestones: { -readonly [K in keyof Milestones]: Milestones[K] };
  readonly changes: Changes;
  /** Events 0 to this (exclusive) were published. */
  publishedUpTo: number;
  readonly checkpoints: {
    start: Map<string, number | undefined>;
    faultOn: Map<string, number | undefined>;
  };
  /** Target time since the run started, as `t+12 s`. */
  elapsed(): string;
  mark(name: keyof Milestones, line: string): void;
  wait<T>(stage: string, check: () => Promise<{ done: T } | { seen: string }>): Promise<T>;
  publish(phase: PublishPhase): Promise<void>;
}
