import type { TokenCredential } from '@azure/core-auth';

import { AzureSetupError } from './azureSetupError';

/** The secret infra/core/key-vault.bicep stores the approval signing key in. */
export const SIGNING_KEY_SECRET = 'approval-signing-key';

/**
 * Reads the app's current approval signing key from its Key Vault (REST, one GET) with the signed-in
 * credential, which needs the Key Vault Secrets User role on the vault. The value is returned to the
 * caller only: never printed, logged or written anywhere.
 */
export async function readSigningKey(vault: URL, credential: TokenCredential): Promise<string> {
  const vaultName = vault.hostname;
  const token = await credential.getToken('https://vault.azure.net/.default');
  if (!token) throw new AzureSetupError('no Key Vault token for the signed-in credential');
  const res = await fetch(
    // The vault's URL is built from a validated name with its host checked (azureCloud.ts).
    new URL(`/secrets/${SIGNING_KEY_SECRET}?api-version=7.4`, vault),
    {
      headers: { authorization: `Bearer ${token.token}` },
      redirect: 'error',
      signal: AbortSignal.timeout(20_000),
    },
  );
  if (!res.ok)
    throw new AzureSetupError(
      `cannot read secret ${SIGNING_KEY_SECRET} from Key Vault ${vaultName} (HTTP ${res.status}): the run approves through the approval page with a link it signs, so it needs the Key Vault Secrets User role on the vault`,
    );
  const body = (await res.json()) as { value?: unknown };
  if (typeof body.value !== 'string' || body.value.length < 32)
    throw new AzureSetupError(`secret ${SIGNING_KEY_SECRET} in ${vaultName} is not a signing key`);
  return body.value;
}
