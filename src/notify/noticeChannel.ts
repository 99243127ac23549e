import type { NoticeIdentity } from './noticeLedger';

/** A notice the provider refused (permanent) comes back as a value; transient failures are thrown. */
export type NoticeOutcome =
  { readonly ok: true } | { readonly ok: false; readonly code: string; readonly message: string };

/**
 * `before-wait`: awaited before the approval wait (the email carries the approval link);
 * `beside-wait`: started beside the wait and never awaited before it.
 */
export type NoticeTiming = 'before-wait' | 'beside-wait';

/** What the orchestration needs of a channel, by name alone: when it is sent and where a loss shows. */
export interface NoticeChannelTraits {
  readonly timing: NoticeTiming;
  /** The status field a lost notice of this channel is reported in (`emailError`, `webhookError`). */
  readonly statusField: `${string}Error`;
}

/**
 * A channel's durable facts, declared in its own folder (`email/emailTraits.ts`, …) and listed in
 * `channelList.ts`: a replay schedules its calls by them, so they are as durable as the name.
 */
export interface ChannelFacts extends NoticeChannelTraits {
  /** Part of the ledger key `<trip>/<kind>/<channel>` and of its send activity's name: never renamed. */
  readonly name: string;
}

/**
 * One way a breaker notice goes out. The orchestration renders from its notice `N` and the facts `F`
 * looked up at sending time; the ledger keeps the rendering, so a re-run sends the message the first
 * attempt rendered (`revive` reads it back). Methods, so a list can hold channels of different messages.
 */
export interface NoticeChannel<N, F, M = unknown> extends NoticeChannelTraits {
  /** Part of the ledger key `<trip>/<kind>/<channel>`: durable, never renamed once released. */
  readonly name: string;
  render(notice: N, facts: F): M;
  /** The stored rendering read back; undefined when it is not a message of this channel. */
  revive(value: unknown): M | undefined;
  /** A refusal (retrying cannot help) comes back as a value; transient failures are thrown. */
  send(message: M, identity: NoticeIdentity): Promise<NoticeOutcome>;
}
