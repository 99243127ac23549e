import type { EmailTransportConfig } from './appConfig';
import type { ConfigProblem } from './errors';
import type { SettingName } from './settings';
import type { SettingValues } from './settingValues';

/** Records a problem for a required value that is missing, unless one already names the setting. */
export type Require = <T>(name: SettingName, value: T | undefined, why?: string) => T | undefined;

/** The email transport from validated settings; undefined (with the problems named) when unusable. */
export function readEmailTransport(
  v: SettingValues,
  problems: ConfigProblem[],
  require: Require,
): EmailTransportConfig | undefined {
  switch (v.EMAIL_PROVIDER) {
    case 'smtp': {
      // A bad value is already a named problem; `require` only adds one when nothing said why.
      const why = ' when EMAIL_PROVIDER=smtp';
      const host = require('SMTP_HOST', v.SMTP_HOST, why);
      const port = require('SMTP_PORT', v.SMTP_PORT, why);
      const secure = require('SMTP_SECURE', v.SMTP_SECURE, why);
      if (host === undefined || port === undefined || secure === undefined) return undefined;
      return { provider: 'smtp', host, port, secure };
    }
    case 'acs':
      if (v.ACS_ENDPOINT === undefined && v.ACS_CONNECTION_STRING === undefined) {
        problems.push({
          setting: 'ACS_ENDPOINT',
          message: 'or ACS_CONNECTION_STRING is required when EMAIL_PROVIDER=acs',
        });
        return undefined;
      }
      return { provider: 'acs', endpoint: v.ACS_ENDPOINT, connectionString: v.ACS_CONNECTION_STRING };
    case 'log':
      return { provider: 'log' };
    default:
      return undefined;
  }
}
