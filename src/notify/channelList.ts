import { EMAIL_CHANNEL } from './email/emailTraits';
import type { NoticeChannelTraits } from './noticeChannel';
import { WEBHOOK_CHANNEL } from './webhook/webhookTraits';

/**
 * Every channel a history may name, configured or not, in sending order (a replay checks the order of
 * the calls): each channel's facts come from its folder, and a new channel is one line here.
 */
export const CHANNEL_FACTS = [EMAIL_CHANNEL, WEBHOOK_CHANNEL] as const;

export type NoticeChannelName = (typeof CHANNEL_FACTS)[number]['name'];

/** The channels' names: ledger keys and send activities hold them, so they never change. */
export const NOTICE_CHANNELS: readonly NoticeChannelName[] = CHANNEL_FACTS.map((c) => c.name);

/** A channel's durable traits by name; undefined for a name this build does not know. */
export function channelTraits(name: string): NoticeChannelTraits | undefined {
  const facts = CHANNEL_FACTS.find((c) => c.name === name);
  return facts === undefined ? undefined : { timing: facts.timing, statusField: facts.statusField };
}
