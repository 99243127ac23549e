/** A fault set through the fault switch: the sample sink answers 503 until `downUntil`. */
export interface FaultState {
  /** Milliseconds since the epoch; the fault is over from then on, without anyone switching it off. */
  readonly downUntil: number;
  readonly setAt: number;
  /** Who asked, for the log. */
  readonly by: string;
}

/** Where the fault is kept: shared by every instance of the app (a row in the breaker's table). */
export interface FaultSwitchStore {
  read(): Promise<FaultState | undefined>;
  write(state: FaultState): Promise<void>;
  clear(): Promise<void>;
}

/** Whether a fault is in force at `now`. */
export const isFaultActive = (state: FaultState | undefined, now: number): state is FaultState =>
  state !== undefined && now < state.downUntil;
