import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/loadConfig';
import { minimal, problemsOf } from './configFixture';

const KEY = 'a-webhook-signing-key-of-32-chars-or-more';

describe('operations settings', () => {
  it('are off by default: no webhook, no sign-in requirement, Redis credentials from the URL', () => {
    expect(loadConfig(minimal).operations).toEqual({
      webhook: undefined,
      requireSignedInApprover: false,
      redisAuth: 'url',
      maintenanceContainer: 'breakwater-maintenance',
    });
  });

  it('read a signed json webhook, or a Teams or Slack one with or without a key', () => {
    const url = 'https://hooks.example.com/breakwater';
    expect(loadConfig({ ...minimal, WEBHOOK_URL: url, WEBHOOK_SIGNING_KEY: KEY }).operations.webhook).toEqual(
      {
        url,
        format: 'json',
        signingKey: KEY,
      },
    );
    expect(loadConfig({ ...minimal, WEBHOOK_URL: url, WEBHOOK_FORMAT: 'Teams' }).operations.webhook).toEqual({
      url,
      format: 'teams',
      signingKey: undefined,
    });
  });

  it('refuse a json webhook without a signing key, and never echo the secret URL', () => {
    const secretUrl = 'https://hooks.example.com/services/T000/B000/very-secret-path';
    expect(problemsOf({ ...minimal, WEBHOOK_URL: secretUrl })).toEqual([
      'WEBHOOK_SIGNING_KEY: is required when WEBHOOK_URL is set with WEBHOOK_FORMAT=json (receivers verify it)',
    ]);
    const problems = problemsOf({
      ...minimal,
      WEBHOOK_URL: 'ftp://hooks/very-secret-path',
      WEBHOOK_FORMAT: 'pager',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^WEBHOOK_URL: expected an http\(s\) URL/),
      expect.stringMatching(/^WEBHOOK_FORMAT: expected one of json \| teams \| slack/),
    ]);
    expect(problems.join('\n')).not.toMatch(/very-secret-path/);
  });

  it('read Entra ID auth for Redis only with a rediss:// URL that carries no password', () => {
    const redis = { ...minimal, BREAKER_STORE: 'redis', REDIS_AUTH: 'entra' };
    expect(
      loadConfig({ ...redis, REDIS_CONNECTION: 'rediss://amr-x.westeurope.redis.azure.net:10000' }).operations
        .redisAuth,
    ).toBe('entra');
    for (const url of ['redis://localhost:6379', 'rediss://:key@amr-x.redis.azure.net:10000'])
      expect(problemsOf({ ...redis, REDIS_CONNECTION: url })).toEqual([
        expect.stringMatching(/^REDIS_CONNECTION: must be rediss:\/\/<host>:<port> without a password/),
      ]);
  });

  it('refuse signed-in approvers in Azure when App Service authentication is off (headers could be forged)', () => {
    const azure = {
      ...minimal,
      WEBSITE_SITE_NAME: 'func-x',
      TRIGGER_CONTROL: 'local',
      APPROVAL_REQUIRE_SIGNED_IN: 'true',
    };
    expect(problemsOf(azure)).toEqual([
      expect.stringMatching(/^APPROVAL_REQUIRE_SIGNED_IN: needs App Service authentication/),
    ]);
    expect(loadConfig({ ...azure, WEBSITE_AUTH_ENABLED: 'True' }).operations.requireSignedInApprover).toBe(
      true,
    );
  });

  it('read the signed-in approver requirement', () => {
    expect(
      loadConfig({ ...minimal, APPROVAL_REQUIRE_SIGNED_IN: 'true' }).operations.requireSignedInApprover,
    ).toBe(true);
  });

  it('refuses an http:// webhook URL in Azure (the notice and a chat URL would travel in clear); locally it is fine', () => {
    const inAzure = {
      ...minimal,
      WEBSITE_SITE_NAME: 'func-breakwater',
      WEBSITE_RESOURCE_GROUP: 'rg',
      WEBSITE_OWNER_NAME: '11111111-2222-3333-4444-555555555555+rg-EastUSwebspace-Linux',
    };
    const plain = { WEBHOOK_URL: 'http://hooks.example.com/breakwater', WEBHOOK_SIGNING_KEY: KEY };
    expect(problemsOf({ ...inAzure, ...plain })).toEqual([
      expect.stringMatching(/^WEBHOOK_URL: must be https:\/\/ when running in Azure/),
    ]);
    expect(loadConfig({ ...minimal, ...plain }).operations.webhook?.url).toBe(plain.WEBHOOK_URL);
    expect(
      loadConfig({ ...inAzure, ...plain, WEBHOOK_URL: 'https://hooks.example.com/breakwater' }).operations
        .webhook?.url,
    ).toBe('https://hooks.example.com/breakwater');
  });
});
