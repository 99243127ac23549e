import type { BreakwaterWorld } from '../../../sim/world/breakwaterWorld';

/** Email kinds told apart by their subject (the templates in src/notify/messages). */
const KINDS = {
  tripped: /stopped: approval needed \(trip ([^)]+)\)/,
  resumed: /resumed, on probation \(trip ([^)]+)\)/,
} as const;

/** How many emails of a kind each trip (by the short id in the subject) received, from `since` on. */
export function emailsPerTrip(
  world: BreakwaterWorld,
  kind: keyof typeof KINDS,
  since = 0,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of world.smtp.received.slice(since)) {
    const trip = KINDS[kind].exec(mail.subject ?? '')?.[1];
    if (trip !== undefined) counts.set(trip, (counts.get(trip) ?? 0) + 1);
  }
  return counts;
}
