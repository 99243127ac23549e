/** Names of the breaker's activity functions (registered once, called by the orchestrator). */
export const BreakerActivity = {
  openTrip: 'Breaker_OpenTrip',
  disableTrigger: 'Breaker_DisableTrigger',
  enableTrigger: 'Breaker_EnableTrigger',
  transition: 'Breaker_Transition',
  resetWindow: 'Breaker_ResetWindow',
  readState: 'Breaker_ReadState',
  drainSaved: 'Breaker_DrainSaved',
} as const;

export type BreakerActivityName = (typeof BreakerActivity)[keyof typeof BreakerActivity];

/**
 * `Breaker_Send<Name>`: the activity that sends a notice on one channel, one per channel. Histories
 * name it, so it never changes (`email` gives `Breaker_SendEmail`, `webhook` `Breaker_SendWebhook`).
 */
export const sendActivityName = <N extends string>(channel: N) =>
  `Breaker_Send${channel.charAt(0).toUpperCase()}${channel.slice(1)}` as `Breaker_Send${Capitalize<N>}`;
