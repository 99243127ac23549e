import type { DownstreamProbe } from './downstreamProbe';

/** "03:12:40 UTC": a probe line is read during the incident, so the time of day is what matters. */
const clockTime = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} UTC`;

/** Whole minutes below an hour, then hours and minutes. */
function span(ms: number): string {
  const min = Math.max(0, Math.floor(ms / 60_000));
  if (min < 1) return 'under 1 min';
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/**
 * The one line every surface shows: "downstream healthy for 4 min (last probe 03:12:40 UTC)",
 * "still failing: <error>, since 02:58 UTC (last probe 03:12:40 UTC)", or that no probe ran yet.
 */
export function describeDownstream(probe: DownstreamProbe | undefined): string {
  if (probe === undefined) return 'downstream not probed yet (the watchdog probes once a minute while OPEN)';
  const last = `last probe ${clockTime(probe.at)}`;
  if (probe.ok) return `downstream healthy for ${span(probe.at - probe.since)} (${last})`;
  return `still failing: ${probe.error ?? 'unknown error'}, since ${clockTime(probe.since).replace(/:\d\d UTC$/, ' UTC')} (${last})`;
}
