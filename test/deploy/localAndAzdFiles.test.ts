import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { loadConfig } from '../../src/config/loadConfig';
import { hostSettingNames, settingNames, settings } from '../../src/config/settings';
import { isObject, type Json, type JsonObject, readMainTemplate, repoRoot } from './armTemplate';

const read = (path: string) => readFileSync(resolve(repoRoot, path), 'utf8');
const readJson = (path: string) => JSON.parse(read(path)) as Json;

function object(value: Json | undefined, what: string): JsonObject {
  if (!isObject(value)) throw new Error(`${what} is not an object`);
  return value;
}

interface ComposeService {
  image?: string;
  ports?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
}

const localValues = object(object(readJson('local.settings.json.example'), 'the example').Values, 'Values');
const local = (name: string): string => {
  const value = localValues[name];
  if (typeof value !== 'string') throw new Error(`local.settings.json.example lacks ${name}`);
  return value;
};
const compose = parseYaml(read('docker-compose.yml')) as { services: Record<string, ComposeService> };
const service = (name: string): ComposeService => {
  const found = compose.services[name];
  if (found === undefined) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};
/** Host ports a service publishes ("127.0.0.1:6379:6379" -> 6379). */
const publishedPorts = (name: string) =>
  (service(name).ports ?? []).map((p) => Number(p.split(':').at(-2) ?? p));

describe('azure.yaml', () => {
  it('deploys this project as the TypeScript function service api', () => {
    const azure = parseYaml(read('azure.yaml')) as { name: string; services: Record<string, unknown> };
    expect(Object.keys(azure.services)).toEqual(['api']);
    expect(azure.services.api).toMatchObject({ project: '.', language: 'ts', host: 'function' });
  });
});

describe('infra/main.parameters.json', () => {
  let templateParameters: JsonObject;
  const parameters = object(object(readJson('infra/main.parameters.json'), 'file').parameters, 'parameters');
  beforeAll(() => {
    templateParameters = object(readMainTemplate().parameters, 'template parameters');
  });

  it('passes only parameters main.bicep declares, as azd ${VAR} substitutions', () => {
    for (const [name, entry] of Object.entries(parameters)) {
      expect(Object.keys(templateParameters), name).toContain(name);
      if (name === 'appSettingOverrides') continue;
      expect(object(entry, name).value, name).toMatch(/^\$\{[A-Z][A-Z0-9_]*(=[^}]*)?\}$/);
    }
  });

  it('overrides only catalogue settings, if it overrides any', () => {
    const overrides = parameters.appSettingOverrides;
    const names = isObject(overrides) && isObject(overrides.value) ? Object.keys(overrides.value) : [];
    expect(names.filter((n) => !settingNames.includes(n as (typeof settingNames)[number]))).toEqual([]);
  });

  it('provides every parameter that has no default', () => {
    const required = Object.entries(templateParameters)
      .filter(([, p]) => isObject(p) && !('defaultValue' in p))
      .map(([name]) => name);
    expect(required.filter((name) => !(name in parameters))).toEqual([]);
  });

  it('reads app settings from azd variables of the same catalogue name', () => {
    const variableOf = (name: string) => /^\$\{([A-Z0-9_]+)/.exec(text(parameters[name]))?.[1];
    expect(variableOf('approvalSigningKey')).toBe('APPROVAL_SIGNING_KEY');
    expect(variableOf('approvalSigningKeyPrevious')).toBe('APPROVAL_SIGNING_KEY_PREVIOUS');
    expect(variableOf('approvers')).toBe('APPROVERS');
    expect(variableOf('breakerStore')).toBe('BREAKER_STORE');
    for (const name of [
      'APPROVAL_SIGNING_KEY',
      'APPROVAL_SIGNING_KEY_PREVIOUS',
      'APPROVERS',
      'BREAKER_STORE',
    ])
      expect(settingNames).toContain(name);
  });
});

function text(value: Json | undefined): string {
  return isObject(value) && typeof value.value === 'string' ? value.value : '';
}

describe('local.settings.json.example', () => {
  const hostNames = [
    'FUNCTIONS_WORKER_RUNTIME',
    hostSettingNames.storage,
    hostSettingNames.eventHubConnection,
  ];

  it('lists every catalogue setting, and nothing else but the host settings', () => {
    const names = Object.keys(localValues);
    expect(settingNames.filter((name) => !names.includes(name))).toEqual([]);
    expect(names.filter((name) => !(name in settings) && !hostNames.includes(name))).toEqual([]);
  });

  it('is accepted by loadConfig as it stands', () => {
    const env = Object.fromEntries(
      Object.entries(localValues).map(([k, v]) => [k, typeof v === 'string' ? v : '']),
    );
    const config = loadConfig(env);
    expect(config.control.mode).toBe('local');
    expect(config.email.transport.provider).toBe('smtp');
  });

  it('never carries the breaker switch AzureWebJobs.<fn>.Disabled', () => {
    expect(Object.keys(localValues).filter((k) => /^AzureWebJobs\..+\.Disabled$/i.test(k))).toEqual([]);
  });

  it('points every connection at the compose services', () => {
    expect(local('AzureWebJobsStorage')).toBe('UseDevelopmentStorage=true');
    expect(publishedPorts('azurite')).toEqual([10000, 10001, 10002]);

    expect(local('EventHubConnection')).toMatch(/^Endpoint=sb:\/\/localhost;.*UseDevelopmentEmulator=true;/);
    expect(publishedPorts('eventhubs')).toContain(5672);

    const redis = new URL(local('REDIS_CONNECTION'));
    expect(redis.hostname).toBe('localhost');
    expect(publishedPorts('redis')).toContain(Number(redis.port || 6379));

    expect(local('EMAIL_PROVIDER')).toBe('smtp');
    expect(local('SMTP_HOST')).toBe('localhost');
    expect(publishedPorts('mailpit')).toEqual(expect.arrayContaining([Number(local('SMTP_PORT')), 8025]));
  });
});

describe('docker-compose.yml and the Event Hubs emulator config', () => {
  const emulatorConfig = readJson('local/eventhubs/Config.json') as {
    UserConfig: {
      NamespaceConfig: {
        Type: string;
        Entities: { Name: string; PartitionCount: number; ConsumerGroups: { Name: string }[] }[];
      }[];
    };
  };

  it('runs Azurite, the Event Hubs emulator, Redis and Mailpit', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['azurite', 'eventhubs', 'mailpit', 'redis']);
    expect(service('eventhubs').image).toMatch(
      /^mcr\.microsoft\.com\/azure-messaging\/eventhubs-emulator(:|$)/,
    );
  });

  it('pins every image to a version tag (never latest): a local run is the same next month', () => {
    for (const [name, { image }] of Object.entries(compose.services))
      expect(image, name).toMatch(/^[^:]+:(?!latest$)v?\d+\.\d+\.\d+(-[a-z0-9]+)?$/);
  });

  it('mounts the emulator config and points the emulator at Azurite', () => {
    const eventhubs = service('eventhubs');
    expect(eventhubs.volumes).toContainEqual(
      expect.stringMatching(
        /^\.\/local\/eventhubs\/Config\.json:\/Eventhubs_Emulator\/ConfigFiles\/Config\.json/,
      ),
    );
    expect(eventhubs.environment).toMatchObject({
      BLOB_SERVER: 'azurite',
      METADATA_SERVER: 'azurite',
      ACCEPT_EULA: 'Y',
    });
  });

  it('creates the hub and consumer group the local settings name, with the partitions Azure gets', () => {
    const namespaces = emulatorConfig.UserConfig.NamespaceConfig.filter((n) => n.Type === 'EventHub');
    const hub = namespaces.flatMap((n) => n.Entities).find((e) => e.Name === local('EVENTHUB_NAME'));
    expect(hub, `no emulator entity named ${local('EVENTHUB_NAME')}`).toBeDefined();
    expect(hub!.ConsumerGroups.map((g) => g.Name)).toContain(local('EVENTHUB_CONSUMER_GROUP'));

    const templateParameters = object(readMainTemplate().parameters, 'template parameters');
    const defaults = (name: string) => object(templateParameters[name], name).defaultValue;
    expect(hub!.PartitionCount).toBe(defaults('eventHubPartitionCount'));
    expect(hub!.PartitionCount).toBe(16);
    expect(defaults('eventHubName')).toBe(local('EVENTHUB_NAME'));
    expect(defaults('consumerGroupName')).toBe(local('EVENTHUB_CONSUMER_GROUP'));
  });
});
