import type { TokenCredential } from '@azure/core-auth';

import { AzureSetupError } from './azureSetupError';

export const ARM_SCOPE = 'https://management.azure.com/.default';

/**
 * Gets one ARM token within `timeoutMs`, so a missing or hanging sign-in fails in seconds with one line
 * (DefaultAzureCredential tries several sources, some of which wait on the network).
 */
export async function signIn(credential: TokenCredential, timeoutMs: number): Promise<void> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(
        new AzureSetupError(
          `no Azure credential within ${Math.round(timeoutMs / 1000)} s: sign in with \`az login\` or \`azd auth login\``,
        ),
      );
    }, timeoutMs);
  });
  try {
    const token = await Promise.race([
      credential.getToken(ARM_SCOPE, { abortSignal: abort.signal }),
      timedOut,
    ]);
    if (!token) throw new AzureSetupError('no Azure credential: the sign-in returned no token');
  } catch (error) {
    if (error instanceof AzureSetupError) throw error;
    const first =
      (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200) ?? '';
    throw new AzureSetupError(
      `no Azure credential (${first}): sign in with \`az login\` or \`azd auth login\``,
    );
  } finally {
    clearTimeout(timer);
  }
}
