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
    throw new AzureSetupError(
      `no Azure credential (${whatFailed(error)}): sign in with \`az login\` or \`azd auth login\``,
    );
  } finally {
    clearTimeout(timer);
  }
}

const firstLine = (e: unknown, max: number) =>
  (e instanceof Error ? e.message : String(e)).split('\n')[0]?.trim().slice(0, max) ?? '';

/** DefaultAzureCredential fails with one error per source it tried (AggregateAuthenticationError). */
function whatFailed(error: unknown): string {
  const each = (error as { errors?: unknown }).errors;
  if (!Array.isArray(each) || each.length === 0) return firstLine(error, 200);
  return (
    each
      // The first sentence of each says which source and why; the rest is a troubleshooting link.
      .map((e) => firstLine(e, 200).split(/\.\s/)[0]?.slice(0, 90) ?? '')
      .join('; ')
      .slice(0, 400)
  );
}
