/**
 * A virtual clock and the scheduler that runs on it: `advance` fires every timer that falls due, in
 * order, letting real I/O (Redis) settle between them. Tests measure recovery in virtual seconds.
 */
export function virtualTimers(start: number) {
  let now = start;
  let seq = 0;
  const planned: { due: number; seq: number; run: () => void; cancelled: boolean }[] = [];
  const settle = async () => {
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  };
  return {
    clock: { now: () => now },
    schedule: (run: () => void, delayMs: number) => {
      const entry = { due: now + delayMs, seq: seq++, run, cancelled: false };
      planned.push(entry);
      return () => {
        entry.cancelled = true;
      };
    },
    /** Moves the clock on by `ms`, firing due timers (and the ones they plan) on the way. */
    async advance(ms: number): Promise<void> {
      const until = now + ms;
      for (;;) {
        const next = planned
          .filter((p) => !p.cancelled && p.due <= until)
          .sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
        if (next === undefined) break;
        next.cancelled = true;
        now = Math.max(now, next.due);
        next.run();
        await settle();
      }
      now = until;
      await settle();
    },
  };
}

/**
 * Virtual seconds until `probe` answers: tried at once, then after every `stepMs` of virtual time,
 * up to `limitMs` (Infinity if it never answered).
 */
export async function secondsUntilAnswered(
  timers: ReturnType<typeof virtualTimers>,
  probe: () => Promise<unknown>,
  { stepMs = 250, limitMs = 60_000 } = {},
): Promise<number> {
  const start = timers.clock.now();
  for (;;) {
    try {
      await probe();
      return (timers.clock.now() - start) / 1000;
    } catch {
      if (timers.clock.now() - start >= limitMs) return Number.POSITIVE_INFINITY;
      await timers.advance(stepMs);
    }
  }
}
