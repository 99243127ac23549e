import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/loadConfig';
import { settings } from '../../src/config/settings';
import { minimal, problemsOf } from './configFixture';

// Settings the hardening review found accepted although they must not be.
const inAzure = {
  ...minimal,
  WEBSITE_SITE_NAME: 'func-breakwater',
  WEBSITE_RESOURCE_GROUP: 'rg-breakwater',
  WEBSITE_OWNER_NAME: '11111111-2222-3333-4444-555555555555+rg-breakwater-EastUSwebspace-Linux',
};

/** Every signing key the repository publishes: the example settings file and the settings catalogue. */
function publishedKeys(): string[] {
  const example = JSON.parse(readFileSync('local.settings.json.example', 'utf8')) as {
    Values: Record<string, string>;
  };
  return [
    example.Values.APPROVAL_SIGNING_KEY ?? '',
    settings.APPROVAL_SIGNING_KEY.example,
    settings.APPROVAL_SIGNING_KEY_PREVIOUS.example,
  ].filter((k) => k.length >= 32);
}

describe('settings that must be refused', () => {
  it('a published example signing key, when running in Azure (anyone could forge approval links)', () => {
    const keys = publishedKeys();
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) {
      expect(problemsOf({ ...inAzure, APPROVAL_SIGNING_KEY: key })).toEqual([
        expect.stringMatching(/^APPROVAL_SIGNING_KEY: .*published/),
      ]);
      expect(problemsOf({ ...inAzure, APPROVAL_SIGNING_KEY_PREVIOUS: key })).toEqual([
        expect.stringMatching(/^APPROVAL_SIGNING_KEY_PREVIOUS: .*published/),
      ]);
      // Locally the example works as published.
      expect(loadConfig({ ...minimal, APPROVAL_SIGNING_KEY: key }).approval.signingKeys).toEqual([key]);
    }
  });

  it('a published example key in ANY signing-key setting, the webhook key included (anyone could forge a signed notice)', () => {
    const signingSettings = Object.entries(settings)
      .filter(([, spec]) => 'signingKey' in spec && spec.signingKey === true)
      .map(([name]) => name);
    expect(signingSettings).toEqual([
      'APPROVAL_SIGNING_KEY',
      'APPROVAL_SIGNING_KEY_PREVIOUS',
      'WEBHOOK_SIGNING_KEY',
    ]);
    const keys = [...publishedKeys(), settings.WEBHOOK_SIGNING_KEY.example];
    const webhook = { WEBHOOK_URL: 'https://hooks.example.com/breakwater' };
    for (const key of keys) {
      expect(problemsOf({ ...inAzure, ...webhook, WEBHOOK_SIGNING_KEY: key })).toEqual([
        expect.stringMatching(/^WEBHOOK_SIGNING_KEY: .*published.*forge/),
      ]);
      // Locally the published key still signs (the demo and the local receiver use it).
      expect(
        loadConfig({ ...minimal, ...webhook, WEBHOOK_SIGNING_KEY: key }).operations.webhook,
      ).toMatchObject({ signingKey: key });
    }
    // A key of its own is accepted in Azure.
    const own = 'a-webhook-key-generated-for-this-app-only-0123456789';
    expect(
      loadConfig({ ...inAzure, ...webhook, WEBHOOK_SIGNING_KEY: own }).operations.webhook?.signingKey,
    ).toBe(own);
  });

  it('an EMAIL_SENDER that is not one plain address (CR/LF would inject headers)', () => {
    for (const sender of [
      'ops@example.com\r\nBcc: attacker@example.net',
      'Ops <ops@example.com>',
      'ops@example.com, other@example.com',
      'not an address',
    ]) {
      expect(problemsOf({ ...minimal, EMAIL_SENDER: sender })).toEqual([
        expect.stringMatching(/^EMAIL_SENDER: expected one email address/),
      ]);
    }
    expect(loadConfig({ ...minimal, EMAIL_SENDER: 'DoNotReply@example.com' }).email.sender).toBe(
      'DoNotReply@example.com',
    );
  });

  it('a PUBLIC_BASE_URL with a query or a fragment (emailed links would point at /)', () => {
    for (const url of [
      'https://ops.example.com/?x=1',
      'https://ops.example.com/#top',
      'https://ops.example.com?',
    ]) {
      expect(problemsOf({ ...minimal, PUBLIC_BASE_URL: url })).toEqual([
        expect.stringMatching(/^PUBLIC_BASE_URL: .*without query or fragment/),
      ]);
    }
    expect(
      loadConfig({ ...minimal, PUBLIC_BASE_URL: 'https://ops.example.com/breakwater/' }).approval,
    ).toMatchObject({
      publicBaseUrl: 'https://ops.example.com/breakwater',
    });
  });

  it("a BATCH_DEADLINE_MS that does not fit in host.json's functionTimeout, with room to dead-letter", () => {
    const host = JSON.parse(readFileSync('host.json', 'utf8')) as { functionTimeout: string };
    const [h, m, s] = host.functionTimeout.split(':').map(Number) as [number, number, number];
    const timeoutMs = ((h * 60 + m) * 60 + s) * 1000;
    expect(problemsOf({ ...minimal, BATCH_DEADLINE_MS: String(timeoutMs) })).toEqual([
      expect.stringMatching(/^BATCH_DEADLINE_MS: .*functionTimeout/),
    ]);
    expect(problemsOf({ ...minimal, BATCH_DEADLINE_MS: String(timeoutMs - 30_000) })).toHaveLength(1);
    expect(
      loadConfig({ ...minimal, BATCH_DEADLINE_MS: String(timeoutMs - 60_000) }).processing.batchDeadlineMs,
    ).toBe(timeoutMs - 60_000);
  });

  it('every bad SMTP setting is named, together with the other problems', () => {
    expect(
      problemsOf({
        ...minimal,
        EMAIL_PROVIDER: 'smtp',
        SMTP_PORT: 'abc',
        SMTP_SECURE: 'yes',
        BREAKER_THRESHOLD: '0',
      }).map((p) => p.split(':')[0]),
    ).toEqual(['BREAKER_THRESHOLD', 'SMTP_PORT', 'SMTP_SECURE']);
  });
});
