import type { Clock } from '../../src/kernel/clock';

/** Virtual time for end-to-end runs: only `advance` moves it, so a run is repeatable. */
export class SimClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
