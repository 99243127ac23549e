import type { TokenCredential } from '@azure/core-auth';

import type { EmailConfig } from '../config/appConfig';
import type { Logger } from '../kernel/logger';
import { type AcsTlsSettings, makeAcsEmailClient, makeAcsEmailSender } from './acsEmailSender';
import type { EmailSender } from './emailSender';
import { makeLogEmailSender } from './logEmailSender';
import { makeSmtpEmailSender } from './smtpEmailSender';

export interface EmailSenderDeps {
  /** Used only for ACS with an endpoint; pass a lazy wrapper so other providers never build one. */
  readonly credential: TokenCredential;
  readonly logger: Logger;
  readonly sleep: (ms: number) => Promise<void>;
  readonly acs?: {
    readonly tls?: AcsTlsSettings;
    readonly pollIntervalMs?: number;
    readonly maxPolls?: number;
  };
  readonly smtpTimeoutMs?: number;
}

/** Chooses the transport by `config.email.transport.provider` (EMAIL_PROVIDER); throws EmailConfigError. */
export function makeEmailSender(config: { readonly email: EmailConfig }, deps: EmailSenderDeps): EmailSender {
  const { transport, sender } = config.email;
  switch (transport.provider) {
    case 'log':
      return makeLogEmailSender(deps.logger);
    case 'smtp':
      return makeSmtpEmailSender({
        host: transport.host,
        port: transport.port,
        secure: transport.secure,
        sender,
        ...(deps.smtpTimeoutMs === undefined ? {} : { timeoutMs: deps.smtpTimeoutMs }),
      });
    case 'acs':
      return makeAcsEmailSender({
        client: makeAcsEmailClient({
          endpoint: transport.endpoint,
          connectionString: transport.connectionString,
          credential: deps.credential,
          ...(deps.acs?.tls === undefined ? {} : { tls: deps.acs.tls }),
        }),
        sender,
        sleep: deps.sleep,
        ...(deps.acs?.pollIntervalMs === undefined ? {} : { pollIntervalMs: deps.acs.pollIntervalMs }),
        ...(deps.acs?.maxPolls === undefined ? {} : { maxPolls: deps.acs.maxPolls }),
      });
  }
}
