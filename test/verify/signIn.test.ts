import type { TokenCredential } from '@azure/core-auth';
import { describe, expect, it } from 'vitest';

import { isAzureSetupError } from '../../verify/azure/azureSetupError';
import { ARM_SCOPE, signIn } from '../../verify/azure/signIn';

describe('signing in to Azure', () => {
  it('gives up after the timeout when the credential never answers, aborting its request', async () => {
    let aborted = false;
    const hanging: TokenCredential = {
      getToken: (_scope, options) =>
        new Promise(() => {
          options?.abortSignal?.addEventListener('abort', () => (aborted = true));
        }),
    };
    const error: unknown = await signIn(hanging, 50).catch((e: unknown) => e);
    expect(isAzureSetupError(error)).toBe(true);
    expect((error as Error).message).toBe(
      'no Azure credential within 0 s: sign in with `az login` or `azd auth login`',
    );
    expect(aborted).toBe(true);
  });

  it('asks for an ARM token and passes when one comes', async () => {
    const scopes: string[] = [];
    const ok: TokenCredential = {
      getToken: (scope) => {
        scopes.push(String(scope));
        return Promise.resolve({ token: 't', expiresOnTimestamp: 0 });
      },
    };
    await signIn(ok, 1_000);
    expect(scopes).toEqual([ARM_SCOPE]);
  });

  it('says what the credential said, on one line', async () => {
    const failing: TokenCredential = {
      getToken: () => Promise.reject(new Error('AzureCliCredential: az not found\nmore detail')),
    };
    await expect(signIn(failing, 1_000)).rejects.toThrow(
      /^no Azure credential \(AzureCliCredential: az not found\): sign in with/,
    );
  });
});
