import type { ChannelFacts } from '../noticeChannel';

/** The webhook: sent beside the approval wait, never awaited before it; a loss shows in `webhookError`. */
export const WEBHOOK_CHANNEL = {
  name: 'webhook',
  timing: 'beside-wait',
  statusField: 'webhookError',
} as const satisfies ChannelFacts;
