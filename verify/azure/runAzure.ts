import { DefaultAzureCredential } from '@azure/identity';

import type { VerifyOptions } from '../args';
import { runVerify, type RunDeps, type VerifyResult } from '../runVerify';
import { type Environment, readAzdEnvironment, selectedAzdEnvironment } from './azdEnvironment';
import { AzureSetupError } from './azureSetupError';
import { createAzureTarget } from './azureTarget';
import { signIn } from './signIn';

export { isAzureSetupError } from './azureSetupError';

/**
 * `--target azure`: the azd environment first (no network), then one ARM token within the credential
 * timeout, then the deployment through ARM; each failure is one AzureSetupError line.
 */
export async function runAzureVerify(
  options: VerifyOptions,
  cwd: string,
  env: Environment,
  deps: RunDeps,
): Promise<VerifyResult> {
  const selected = selectedAzdEnvironment(cwd, env, options.env);
  if (selected === undefined)
    throw new AzureSetupError(
      'no azd environment selected (no --env, no AZURE_ENV_NAME, no defaultEnvironment in .azure/config.json): run `azd up` first, or pass --target local',
    );
  const azd = readAzdEnvironment(cwd, selected.name);
  const credential = new DefaultAzureCredential();
  await signIn(credential, options.credentialTimeoutSeconds * 1000);
  const target = await createAzureTarget(azd, credential);
  deps.print(
    `azd environment "${selected.name}" (from ${selected.source}), subscription ${azd.AZURE_SUBSCRIPTION_ID}`,
  );
  return runVerify(
    target,
    {
      events: options.events ?? 1000,
      poisonEvery: options.poisonEvery,
      homes: options.homes,
      faultMinutes: options.faultMinutes,
      stageTimeoutMs: (options.stageTimeoutSeconds ?? 600) * 1000,
      approver: options.approver,
    },
    deps,
  );
}
