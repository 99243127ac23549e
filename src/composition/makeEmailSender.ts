import type { TokenCredential } from '@azure/core-auth';

import type { EmailConfig } from '../config/appConfig';
import type { Logger } from '../kernel/logger';
import { makeAcsEmailClient, makeAcsEmailSender } from '../notify/email/acsEmailSender';
import type { EmailSender } from '../notify/email/emailSender';
import { makeLogEmailSender } from '../notify/email/logEmailSender';
import { makeSmtpEmailSender } from '../notify/email/smtpEmailSender';

export interface EmailSenderDeps {
  /** Used only for ACS with an endpoint; pass a lazy wrapper so other providers never build one. */
  readonly credential: TokenCredential;
  readonly logger: Logger;
  readonly sleep: (ms: number) => Promise<void>;
  /** The CA certificate of a local ACS endpoint (the simulator's; see LocalEndpoints). */
  readonly acsCa?: string;
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
      });
    case 'acs':
      return makeAcsEmailSender({
        client: makeAcsEmailClient({
          endpoint: transport.endpoint,
          connectionString: transport.connectionString,
          credential: deps.credential,
          ...(deps.acsCa === undefined ? {} : { tls: { ca: deps.acsCa } }),
        }),
        sender,
        sleep: deps.sleep,
      });
  }
}
