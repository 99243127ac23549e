import type { AccessToken, GetTokenOptions, TokenCredential } from '@azure/core-auth';

import type { AppConfig } from '../config/appConfig';
import type { TriggerSwitch } from '../control/triggerSwitch';
import type { Logger } from '../kernel/logger';
import type { EmailSender } from '../notify/email/emailSender';
import type { LocalEndpoints } from './localEndpoints';
import { makeEmailSender } from './makeEmailSender';
import { makeTriggerSwitch } from './makeTriggerSwitch';

export { makeEmailSender, makeTriggerSwitch };

/** What the breaker orchestration's activities need from the outside world. */
export interface NotifyAndControl {
  readonly triggerSwitch: TriggerSwitch;
  readonly emailSender: EmailSender;
}

export interface NotifyAndControlDeps {
  /** The process's one credential, created on first use: the runtime's, shared by ARM, Storage and email. */
  readonly getCredential: () => TokenCredential;
  readonly logger?: Logger;
  readonly sleep?: (ms: number) => Promise<void>;
  /** The simulator's stand-ins for ARM and ACS; absent in Azure. */
  readonly endpoints?: LocalEndpoints;
}

/** Builds the trigger switch and email sender from config; throws EmailConfigError on unusable email settings. */
export function makeNotifyAndControl(config: AppConfig, deps: NotifyAndControlDeps): NotifyAndControl {
  const logger = deps.logger ?? console;
  const credential = lazyCredential(deps.getCredential);
  const { arm, acsCa } = deps.endpoints ?? {};
  return {
    triggerSwitch: makeTriggerSwitch(config, { credential, logger, arm }),
    emailSender: makeEmailSender(config, { credential, logger, sleep: deps.sleep ?? realSleep, acsCa }),
  };
}

/** A credential that creates the real one only when a token is first asked for (local runs never do). */
export function lazyCredential(get: () => TokenCredential): TokenCredential {
  return {
    getToken: (scopes: string | string[], options?: GetTokenOptions): Promise<AccessToken | null> =>
      get().getToken(scopes, options),
  };
}

function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
