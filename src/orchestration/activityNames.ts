/** Names of the breaker's activity functions (registered once, called by the orchestrator). */
export const BreakerActivity = {
  openTrip: 'Breaker_OpenTrip',
  disableTrigger: 'Breaker_DisableTrigger',
  enableTrigger: 'Breaker_EnableTrigger',
  sendEmail: 'Breaker_SendEmail',
  sendWebhook: 'Breaker_SendWebhook',
  transition: 'Breaker_Transition',
  resetWindow: 'Breaker_ResetWindow',
  readState: 'Breaker_ReadState',
  drainSaved: 'Breaker_DrainSaved',
} as const;

export type BreakerActivityName = (typeof BreakerActivity)[keyof typeof BreakerActivity];
