import type { Clock } from '../../src/kernel/clock';

/** A clock only the test moves. */
export class SimClockForTests implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
