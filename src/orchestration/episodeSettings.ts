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
  /**
   * Whether notices also go to the webhook. Optional: the history of an episode started before the
   * webhook existed lacks it, so its replay schedules no webhook activity it never had.
   */
  readonly webhook?: boolean;
  /**
   * The channels notices go out on in this episode, by name, in sending order. Optional: an episode
   * started before it was recorded has only `webhook` (see `episodeChannels`).
   */
  readonly channels?: readonly string[];
  /**
   * Whether the events the retention guard saved are drained to the sink before the re-enable.
   * Optional for the same reason: an episode started before the guard existed replays without it.
   */
  readonly drainSaved?: boolean;
}

/**
 * What a new episode records: the numbers, and the channels of the list in order. `webhook` is still
 * written beside `channels`, so a build from before `channels` replays the episode during a rollback.
 */
export const episodeSettingsOf = (s: EpisodeSettings, channels: readonly string[]): EpisodeSettings => ({
  maxReminders: s.maxReminders,
  reminderMinutes: s.reminderMinutes,
  probationSeconds: s.probationSeconds,
  ...(channels.includes('webhook') ? { webhook: true } : {}),
  channels: [...channels],
  ...(s.drainSaved === true ? { drainSaved: true } : {}),
});

/** The episode's channels; one recorded without `channels` sent the email, then the webhook if on. */
export const episodeChannels = (s: EpisodeSettings): readonly string[] =>
  s.channels ?? ['email', ...(s.webhook === true ? ['webhook'] : [])];
