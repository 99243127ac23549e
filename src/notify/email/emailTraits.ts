import type { ChannelFacts } from '../noticeChannel';

/** The email: awaited before the approval wait (it carries the approval link); a loss shows in `emailError`. */
export const EMAIL_CHANNEL = {
  name: 'email',
  timing: 'before-wait',
  statusField: 'emailError',
} as const satisfies ChannelFacts;
