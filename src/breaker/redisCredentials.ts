import type { TokenCredential } from '@azure/core-auth';

/** A username and password for Redis AUTH, valid until `expiresAt` (ms since the epoch). */
export interface RedisCredentials {
  readonly username: string;
  readonly password: string;
  readonly expiresAt: number;
}

/** Fetches fresh credentials; injected so tests can rotate an ACL password under a running client. */
export type RedisCredentialProvider = () => Promise<RedisCredentials>;

/** Scope of Microsoft Entra tokens for Azure Managed Redis (and Azure Cache for Redis). */
export const REDIS_ENTRA_SCOPE = 'https://redis.azure.com/.default';

/**
 * Entra ID credentials for Azure Managed Redis: the identity's access token is the password and its
 * object id the username (the `oid` claim of that same token unless one is given, e.g. in the URL).
 * The credential (DefaultAzureCredential / managed identity) caches tokens itself.
 */
export function entraRedisCredentials(
  credential: TokenCredential,
  username?: string,
): RedisCredentialProvider {
  return async () => {
    const token = await credential.getToken(REDIS_ENTRA_SCOPE);
    if (token === null) throw new Error('no Microsoft Entra token for Redis (the credential returned none)');
    const user = username ?? objectIdOf(token.token);
    if (user === undefined)
      throw new Error('the Entra token for Redis has no oid claim: put the object id in REDIS_CONNECTION');
    return { username: user, password: token.token, expiresAt: token.expiresOnTimestamp };
  };
}

/** The `oid` claim of a JWT, read without verifying it (it is our own token, for the username only). */
function objectIdOf(jwt: string): string | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const oid = (payload as { oid?: unknown }).oid;
    return typeof oid === 'string' && oid !== '' ? oid : undefined;
  } catch {
    return undefined;
  }
}
