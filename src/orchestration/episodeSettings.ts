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
   * Whether the events the retention guard saved are drained to the sink before the re-enable.
   * Optional for the same reason: an episode started before the guard existed replays without it.
   */
  readonly drainSaved?: boolean;
}

export const episodeSettingsOf = (s: EpisodeSettings): EpisodeSettings => ({
  maxReminders: s.maxReminders,
  reminderMinutes: s.reminderMinutes,
  probationSeconds: s.probationSeconds,
  ...(s.webhook === true ? { webhook: true } : {}),
  ...(s.drainSaved === true ? { drainSaved: true } : {}),
});
