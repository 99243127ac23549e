import type { BreakerNotice, NoticeFacts } from './breakerNotice';
import type { NoticeChannel } from './noticeChannel';

/** A notice channel as the breaker uses it: rendered from the notice and the facts of sending time. */
export type BreakerChannel = NoticeChannel<BreakerNotice, NoticeFacts>;
