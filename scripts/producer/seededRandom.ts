/** A small deterministic generator (mulberry32): the same seed yields the same sequence in [0, 1). */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A whole number from 0 to `below - 1`. */
export function randomIndex(random: Random, below: number): number {
  return Math.floor(random() * below);
}
