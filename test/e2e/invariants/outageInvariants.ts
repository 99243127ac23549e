import type { BreakwaterWorld } from '../../../sim/world/breakwaterWorld';
import { orderingOf } from '../../../sim/world/orderingInWorld';
import { keyOf, type ScenarioReport } from '../../../sim/world/scenario';

/** What a schedule did to the downstream and the partitions (the property test states it per schedule). */
export interface ScheduleFacts {
  /** The only downstream faults were outages (every write refused for a while), none about one event. */
  readonly sinkFaultsAreOutagesOnly: boolean;
  /** A partition moved between instances (a steal, a scale-out): order is then per key, by convergence. */
  readonly partitionsMoved: boolean;
}

/**
 * The outage invariants, in words (empty when they hold):
 * - an outage dead-letters nothing: where the only downstream faults were outages, no dead letter is
 *   anything but poison;
 * - where, in addition, no partition moved, each partition's first writes of its events come in
 *   sequence order (per key with ORDERING=key): a held batch's re-runs only repeat what was written.
 */
export function outageViolations(
  world: BreakwaterWorld,
  report: ScenarioReport,
  run: string,
  facts: ScheduleFacts,
): string[] {
  if (!facts.sinkFaultsAreOutagesOnly) return [];
  const problems: string[] = [];
  const notPoison = report.deadLetters.filter((d) => d.reason !== 'poison');
  if (notPoison.length > 0)
    problems.push(
      `outage-only schedule dead-lettered ${notPoison.length} event(s) that were not poison: ` +
        notPoison
          .slice(0, 5)
          .map((d) => `${keyOf(d.partitionId, d.sequenceNumber)} ${d.reason}`)
          .join(', '),
    );
  if (facts.partitionsMoved) return problems;
  const next = new Map<string, number>();
  const seen = new Set<string>();
  const byKey = orderingOf(world) === 'key';
  for (const w of world.writes.filter((x) => x.run === run)) {
    const key = keyOf(w.partitionId, w.sequenceNumber);
    if (seen.has(key)) continue;
    seen.add(key);
    const stream = byKey ? `${w.partitionId} key ${w.key}` : w.partitionId;
    const expectedAtLeast = next.get(stream) ?? 0;
    if (w.sequenceNumber < expectedAtLeast) {
      problems.push(`partition ${stream}: first write of ${w.sequenceNumber} after a later event`);
      break;
    }
    next.set(stream, w.sequenceNumber + 1);
  }
  return problems;
}
