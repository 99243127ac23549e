import { UnreadableHistoryError } from './errors';

/**
 * The numbers an episode runs by. The orchestrator receives them through the history (the result
 * of its first activity), never from config at replay time: a config change and app restart in the
 * middle of an episode must not change what a replay does (a different reminder count would schedule
 * timers the history does not have).
 */
export interface EpisodeSettings {
  readonly maxReminders: number;
  readonly reminderMinutes: number;
  readonly probationSeconds: number;
  /** The channels notices go out on in this episode, by name, in sending order. */
  readonly channels: readonly string[];
  /**
   * Whether the events the retention guard saved are drained to the sink before the re-enable.
   * Written only when on.
   */
  readonly drainSaved?: boolean;
}

/** The settings that come from config (the channels come from the list of channels). */
export type EpisodeNumbers = Omit<EpisodeSettings, 'channels'>;

/** What a new episode records: the numbers, and the channels of the list in order. */
export const episodeSettingsOf = (s: EpisodeNumbers, channels: readonly string[]): EpisodeSettings => ({
  maxReminders: s.maxReminders,
  reminderMinutes: s.reminderMinutes,
  probationSeconds: s.probationSeconds,
  channels: [...channels],
  ...(s.drainSaved === true ? { drainSaved: true } : {}),
});

/**
 * The episode's settings as the orchestrator reads them back from its history (the openTrip result).
 * Settings without `channels` were written by a build before 0.4.0 (historyVersion.ts): not read.
 */
export function readEpisodeSettings(value: unknown): EpisodeSettings {
  const s = (typeof value === 'object' && value !== null ? value : {}) as Partial<
    Record<keyof EpisodeSettings, unknown>
  >;
  const numbers = [s.maxReminders, s.reminderMinutes, s.probationSeconds];
  if (!Array.isArray(s.channels) || !s.channels.every((c) => typeof c === 'string'))
    throw new UnreadableHistoryError(
      'the episode settings in this history name no channels: a build before 0.4.0 wrote them, and this ' +
        "build does not read them; the watchdog starts the trip's episode again",
    );
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0))
    throw new UnreadableHistoryError(
      `the episode settings in this history are not numbers: ${numbers.join(', ')}`,
    );
  return {
    maxReminders: s.maxReminders as number,
    reminderMinutes: s.reminderMinutes as number,
    probationSeconds: s.probationSeconds as number,
    channels: s.channels,
    ...(s.drainSaved === true ? { drainSaved: true } : {}),
  };
}
