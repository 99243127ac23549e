import type { AccessToken, TokenCredential } from '@azure/core-auth';
import { describe, expect, it } from 'vitest';

import { entraRedisCredentials, REDIS_ENTRA_SCOPE } from '../../src/breaker/redisCredentials';

const jwt = (claims: Record<string, unknown>) =>
  ['{"alg":"none"}', JSON.stringify(claims), ''].map((p) => Buffer.from(p).toString('base64url')).join('.');

/** A credential that hands out one fixed token and records the scopes asked for. */
function credentialWith(token: AccessToken | null) {
  const scopes: (string | string[])[] = [];
  const credential: TokenCredential = {
    getToken: (s) => {
      scopes.push(s);
      return Promise.resolve(token);
    },
  };
  return { credential, scopes };
}

describe('Entra ID credentials for Azure Managed Redis', () => {
  it('use the token as the password and its oid claim as the username, for the Redis scope', async () => {
    const token = jwt({ oid: '11111111-2222-3333-4444-555555555555', aud: 'https://redis.azure.com' });
    const { credential, scopes } = credentialWith({ token, expiresOnTimestamp: 1_767_229_200_000 });
    expect(await entraRedisCredentials(credential)()).toEqual({
      username: '11111111-2222-3333-4444-555555555555',
      password: token,
      expiresAt: 1_767_229_200_000,
    });
    expect(scopes).toEqual([REDIS_ENTRA_SCOPE]);
    expect(REDIS_ENTRA_SCOPE).toBe('https://redis.azure.com/.default');
  });

  it('prefer the username from the URL, and say clearly when neither names the identity', async () => {
    const { credential } = credentialWith({ token: jwt({}), expiresOnTimestamp: 1 });
    expect((await entraRedisCredentials(credential, 'object-id-from-url')()).username).toBe(
      'object-id-from-url',
    );
    await expect(entraRedisCredentials(credential)()).rejects.toThrow(/no oid claim/);
    await expect(entraRedisCredentials(credentialWith(null).credential)()).rejects.toThrow(
      /no Microsoft Entra token/,
    );
  });
});
