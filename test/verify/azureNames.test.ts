import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';

import { boundText } from '../../src/kernel/boundText';
import type { AzdValues } from '../../verify/azure/azdEnvironment';
import { appUrl, AZURE_PUBLIC_CLOUD, serviceUrl } from '../../verify/azure/azureCloud';
import { validateAzdNames } from '../../verify/azure/azureNames';
import { terminalConfirm } from '../../verify/confirm';

const good: AzdValues = {
  AZURE_SUBSCRIPTION_ID: '00000000-1111-2222-3333-444444444444',
  AZURE_RESOURCE_GROUP: 'rg-sandbox(1).eu',
  AZURE_FUNCTION_APP_NAME: 'func-api-abc123',
  SERVICE_API_URI: 'https://func-api-abc123.azurewebsites.net',
  EVENTHUB_FULLY_QUALIFIED_NAMESPACE: 'evhns-abc123.servicebus.windows.net',
  EVENTHUB_NAME: 'sensor-readings',
  EVENTHUB_CONSUMER_GROUP: '$Default',
  AZURE_STORAGE_ACCOUNT_NAME: 'stabc123',
  AZURE_KEY_VAULT_NAME: 'kv-abc123',
};
const refusal = (overrides: Partial<AzdValues>) => {
  try {
    validateAzdNames({ ...good, ...overrides }, 'sandbox');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe("the azd file's names, checked against Azure's naming rules before anything is contacted", () => {
  it('takes the names azd up writes', () => {
    expect(refusal({})).toBeUndefined();
  });

  it.each<[keyof AzdValues, string]>([
    ['AZURE_KEY_VAULT_NAME', 'kv--abc'],
    ['AZURE_KEY_VAULT_NAME', '1kv-abc'],
    ['AZURE_KEY_VAULT_NAME', 'kv-abc-'],
    ['AZURE_KEY_VAULT_NAME', 'kv'],
    ['AZURE_KEY_VAULT_NAME', 'k'.repeat(25)],
    ['AZURE_KEY_VAULT_NAME', 'kv.evil.example'],
    ['AZURE_STORAGE_ACCOUNT_NAME', 'StAbc123'],
    ['AZURE_STORAGE_ACCOUNT_NAME', 'st-abc'],
    ['AZURE_STORAGE_ACCOUNT_NAME', 'st'],
    ['AZURE_FUNCTION_APP_NAME', 'f'],
    ['AZURE_FUNCTION_APP_NAME', '-func'],
    ['AZURE_FUNCTION_APP_NAME', 'f'.repeat(61)],
    ['AZURE_FUNCTION_APP_NAME', 'func.evil'],
    ['AZURE_SUBSCRIPTION_ID', '00000000-1111-2222-3333-44444444444'],
    ['AZURE_RESOURCE_GROUP', 'rg.'],
    ['AZURE_RESOURCE_GROUP', 'rg/../x'],
    ['AZURE_RESOURCE_GROUP', 'r'.repeat(91)],
    ['EVENTHUB_FULLY_QUALIFIED_NAMESPACE', 'evhns-abc123.servicebus.windows.net.evil.example'],
    ['EVENTHUB_NAME', 'hub/x'],
    ['EVENTHUB_CONSUMER_GROUP', '-group'],
  ])('refuses %s=%j, naming it', (key, value) => {
    const message = refusal({ [key]: value });
    // Shown bounded (80 characters), as any text from outside.
    expect(message).toContain(
      `azd environment "sandbox": ${key} ${JSON.stringify(boundText(value, 80))} is not `,
    );
    expect(message).toContain('Nothing was contacted');
  });

  it('names a value with control characters without printing them', () => {
    expect(refusal({ AZURE_KEY_VAULT_NAME: 'kv\nOK all good' })).toContain('"kv OK all good"');
  });
});

describe('the URLs, with their host checked once built', () => {
  it('builds https://<name><suffix> for a name that is one DNS label', () => {
    expect(serviceUrl(AZURE_PUBLIC_CLOUD.keyVault, 'kv-abc123', 'AZURE_KEY_VAULT_NAME').href).toBe(
      'https://kv-abc123.vault.azure.net/',
    );
  });

  it.each(['host/x?', 'x.evil.example/', 'user@evil.example#', 'a:1', ''])(
    'refuses %j, which would put the token on another host',
    (name) => {
      expect(() => serviceUrl(AZURE_PUBLIC_CLOUD.blob, name, 'AZURE_STORAGE_ACCOUNT_NAME')).toThrow(
        /does not make a host ending with \.blob\.core\.windows\.net; nothing was contacted/,
      );
    },
  );

  it("takes the app's URL from ARM's defaultHostName, the Flex Consumption form included", () => {
    expect(appUrl(AZURE_PUBLIC_CLOUD.app, 'func-api-abc123.azurewebsites.net', 'f').origin).toBe(
      'https://func-api-abc123.azurewebsites.net',
    );
    expect(appUrl(AZURE_PUBLIC_CLOUD.app, 'func-x-b2h3c4d5.eastus-01.azurewebsites.net', 'f').hostname).toBe(
      'func-x-b2h3c4d5.eastus-01.azurewebsites.net',
    );
  });

  it.each([
    undefined,
    '',
    'evil.example',
    'x.azurewebsites.net.evil.example',
    'a/b.azurewebsites.net',
    'a.b.c.azurewebsites.net',
  ])('refuses a default host name %j', (host) => {
    expect(() => appUrl(AZURE_PUBLIC_CLOUD.app, host, 'func-x')).toThrow(
      /^function app func-x: ARM reports default host name .* not a host ending with \.azurewebsites\.net; nothing was changed$/,
    );
  });
});

describe('the confirmation before any change', () => {
  const terminal = () => Object.assign(new PassThrough(), { isTTY: true });
  it('is not asked without a terminal (then only --yes goes on)', () => {
    expect(
      terminalConfirm(new PassThrough(), new PassThrough(), new AbortController().signal),
    ).toBeUndefined();
  });

  it.each([
    ['yes\n', true],
    ['y\n', true],
    ['no\n', false],
    ['\n', false],
  ])('on a terminal, the answer %j goes on: %s', async (answer, goesOn) => {
    const input = terminal();
    const output = new PassThrough();
    const confirm = terminalConfirm(input, output, new AbortController().signal);
    const answered = confirm?.('Make these changes? ');
    input.write(answer);
    expect(await answered).toBe(goesOn);
    expect(String(output.read())).toContain('Make these changes? ');
  });

  it('a stop while it asks is a no', async () => {
    const stop = new AbortController();
    const answered = terminalConfirm(terminal(), new PassThrough(), stop.signal)?.('Go on? ');
    stop.abort();
    expect(await answered).toBe(false);
  });
});
