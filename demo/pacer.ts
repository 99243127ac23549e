/** Maps simulated seconds to wall time so a person can follow the run. */
export interface Pacer {
  /** Waits out the rest of this simulated second: 1/speed s normally, 1 s in real time. */
  wait(realTime: boolean): Promise<void>;
}

export interface PacerDeps {
  /** Simulated seconds per wall-clock second; 0 = no pacing (real time is still honoured when asked). */
  readonly speed: number;
  readonly wallNow: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** Milliseconds of wall time one simulated second should take. */
export function wallMsPerSecond(speed: number, realTime: boolean): number {
  if (realTime) return 1000;
  return speed > 0 ? 1000 / speed : 0;
}

export function makePacer(deps: PacerDeps): Pacer {
  let last = deps.wallNow();
  return {
    async wait(realTime) {
      const target = wallMsPerSecond(deps.speed, realTime);
      const rest = last + target - deps.wallNow();
      if (rest > 0) await deps.sleep(rest);
      last = deps.wallNow();
    },
  };
}
