import type { TokenCredential } from '@azure/core-auth';

import type { VerifyOptions } from '../args';
import { type RunDeps, runVerify, type VerifyResult } from '../runVerify';
import { readAzdEnvironment } from './azdEnvironment';
import type { AzureCloud } from './azureCloud';
import { validateAzdNames } from './azureNames';
import { AzureSetupError } from './azureSetupError';
import { createAzureTarget } from './azureTarget';
import { signIn } from './signIn';

export { isAzureSetupError } from './azureSetupError';

/** Which Azure the run reaches and as whom (the public cloud and DefaultAzureCredential in `npm run verify`). */
export interface AzureAccess {
  readonly cloud: AzureCloud;
  readonly credential: () => Promise<TokenCredential>;
  /** Asks on a terminal whether to go on; undefined when stdin is not one (then only --yes goes on). */
  readonly confirm: ((question: string) => Promise<boolean>) | undefined;
}

/**
 * `--target azure --env NAME`: the azd environment and its names first (no network), then one ARM token
 * within the credential timeout, then the deployment through ARM (read only), then the list of what the
 * run will change, confirmed on a terminal or by --yes; only then the run. Each refusal is one line.
 */
export async function runAzureVerify(
  options: VerifyOptions,
  cwd: string,
  access: AzureAccess,
  deps: RunDeps,
): Promise<VerifyResult> {
  const envName = options.env;
  if (envName === undefined) throw new AzureSetupError('--target azure needs --env <name>');
  const azd = readAzdEnvironment(cwd, envName);
  validateAzdNames(azd, envName);
  const credential = await access.credential();
  await signIn(credential, options.credentialTimeoutSeconds * 1000);
  const target = await createAzureTarget(azd, envName, access.cloud, credential);
  const settings = {
    events: options.events ?? 1000,
    poisonEvery: options.poisonEvery,
    homes: options.homes,
    faultMinutes: options.faultMinutes,
    stageTimeoutMs: (options.stageTimeoutSeconds ?? 600) * 1000,
    approver: options.approver,
  };
  deps.print(`azd environment "${envName}" (--env), subscription ${azd.AZURE_SUBSCRIPTION_ID}`);
  deps.print(target.describe.join(' '));
  deps.print(
    `This run will change (${settings.events} readings, the sink down for at most ${settings.faultMinutes} min, approved as "${settings.approver}"):`,
  );
  for (const line of target.changes) deps.print(`  - ${line}`);
  if (!options.yes) {
    if (access.confirm === undefined)
      throw new AzureSetupError(
        'stdin is not a terminal to confirm on: pass --yes to make the changes listed above; nothing was changed',
      );
    if (!(await access.confirm(`Make these changes on ${azd.AZURE_FUNCTION_APP_NAME}? Type yes to go on: `)))
      throw new AzureSetupError('not confirmed: nothing was changed');
  }
  return runVerify(target, settings, deps);
}
