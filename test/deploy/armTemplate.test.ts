import { beforeAll, describe, expect, it } from 'vitest';

import { GUARDED_FUNCTION_NAME } from '../../src/config/appConfig';
import { loadConfig } from '../../src/config/loadConfig';
import { settings } from '../../src/config/settings';
import { NOTICE_LEDGER_CONTAINER } from '../../src/notify/blobNoticeLedger';
import {
  allResources,
  bicepAppSettings,
  isExpression,
  isObject,
  type JsonObject,
  keysAndStrings,
  type Located,
  moduleNamed,
  readMainTemplate,
  text,
} from './armTemplate';

const WEBSITE_CONTRIBUTOR = 'de139f84-1756-47ae-9be6-808fbbe84772';
const hostSettingPattern =
  /^(AzureWebJobsStorage__(credential|clientId|blobServiceUri|queueServiceUri|tableServiceUri)|EventHubConnection__(fullyQualifiedNamespace|credential|clientId)|APPLICATIONINSIGHTS_(CONNECTION_STRING|AUTHENTICATION_STRING))$/;

/** The role GUID of a role assignment, following variables('x') into its declaring template. */
function roleDefinitionOf({ resource, template: declaring }: Located): string | undefined {
  if (resource.type !== 'Microsoft.Authorization/roleAssignments' || !isObject(resource.properties)) return;
  let expression = text(resource.properties.roleDefinitionId);
  const variables = isObject(declaring.variables) ? declaring.variables : {};
  expression = expression.replace(
    /variables\('([^']+)'\)/g,
    (_, name: string) => `'${text(variables[name])}'`,
  );
  return /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i
    .exec(expression)?.[1]
    ?.toLowerCase();
}

let template: JsonObject;
beforeAll(() => {
  template = readMainTemplate();
});

/**
 * The app settings as the running app would see them: literal values as written, and for values known
 * only at deployment (resource endpoints, Key Vault references) the catalogue's example, or a plausible
 * resolved value for host settings.
 */
/** A Key Vault secret as deployed: never the published example, which start-up refuses in Azure. */
// Signing keys resolve to a deployed-looking value (the published examples are refused in Azure);
// every other Key Vault reference resolves to its catalogue example (a URL stays a URL).
const resolvedSetting = (name: keyof typeof settings) =>
  name.includes('SIGNING_KEY') ? `deployed-${name}-0123456789abcdef0123456789` : settings[name].example;

function simulatedAzureEnvironment(overrides: Record<string, string> = {}): Record<string, string> {
  const resolvedHostValue = (name: string) =>
    name.endsWith('ServiceUri')
      ? `https://stexample.${name.split('__')[1]!.replace('ServiceUri', '')}.core.windows.net/`
      : name.endsWith('fullyQualifiedNamespace')
        ? 'evhns-example.servicebus.windows.net'
        : '00000000-0000-0000-0000-000000000000';
  const env: Record<string, string> = {
    WEBSITE_SITE_NAME: 'func-api-example',
    WEBSITE_HOSTNAME: 'func-api-example.azurewebsites.net',
  };
  for (const [name, value] of Object.entries({ ...bicepAppSettings(template), ...overrides })) {
    if (!isExpression(value)) env[name] = value;
    else if (name in settings) env[name] = resolvedSetting(name as keyof typeof settings);
    else env[name] = resolvedHostValue(name);
  }
  return env;
}

describe('compiled infra/main.bicep', () => {
  it('targets a subscription and creates the resource group', () => {
    expect(text(template.$schema)).toMatch(/subscriptionDeploymentTemplate/);
    expect(
      allResources(template).some(({ resource }) => resource.type === 'Microsoft.Resources/resourceGroups'),
    ).toBe(true);
  });

  it("grants the app's identity a custom role on the function app itself: read and write its settings, nothing else", () => {
    expect(allResources(template).filter((l) => roleDefinitionOf(l) === WEBSITE_CONTRIBUTOR)).toEqual([]);
    const roles = allResources(template).filter(
      ({ resource }) => resource.type === 'Microsoft.Authorization/roleDefinitions',
    );
    expect(roles).toHaveLength(1);
    const { resource: role, template: declaring } = roles[0]!;
    const variables = isObject(declaring.variables) ? declaring.variables : {};
    expect(variables.settingsActions).toEqual([
      'Microsoft.Web/sites/config/list/action',
      'Microsoft.Web/sites/config/write',
    ]);
    expect(text(role.properties)).toContain(
      `"permissions":[{"actions":"[variables('settingsActions')]","notActions":[]}]`,
    );
    const grants = allResources(declaring).filter(
      ({ resource, template: t }) =>
        t === declaring &&
        resource.type === 'Microsoft.Authorization/roleAssignments' &&
        text(isObject(resource.properties) ? resource.properties.roleDefinitionId : null).includes(
          'Microsoft.Authorization/roleDefinitions',
        ) &&
        !text(isObject(resource.properties) ? resource.properties.roleDefinitionId : null).includes(
          'subscriptionResourceId',
        ),
    );
    expect(grants).toHaveLength(1);
    const sites = allResources(declaring).filter(
      ({ resource, template: t }) => t === declaring && resource.type === 'Microsoft.Web/sites',
    );
    expect(sites).toHaveLength(1);
    // "[parameters('name')]" -> "[resourceId('Microsoft.Web/sites', parameters('name'))]"
    const siteName = text(sites[0]!.resource.name).slice(1, -1);
    expect(grants[0]!.resource.scope).toBe(`[resourceId('Microsoft.Web/sites', ${siteName})]`);
  });

  it('keeps an open trip across a Redis restart: the Redis store persists (append-only file every second)', () => {
    const database = allResources(template).find(
      ({ resource }) => resource.type === 'Microsoft.Cache/redisEnterprise/databases',
    );
    expect(isObject(database?.resource.properties) && database.resource.properties.persistence).toEqual({
      aofEnabled: true,
      aofFrequency: '1s',
    });
  });

  it('marks the app as open to npm run verify only when asked (allowVerify, default off)', () => {
    const parameters = isObject(template.parameters) ? template.parameters : {};
    expect(parameters.allowVerify).toEqual(expect.objectContaining({ type: 'bool', defaultValue: false }));
    expect(bicepAppSettings(template).BREAKWATER_VERIFY_ALLOWED).toBe(
      "[if(parameters('allowVerify'), 'true', 'false')]",
    );
  });

  it('grants the verify runner Key Vault Secrets User only when asked (GRANT_VERIFY_ROLE)', () => {
    const parameters = isObject(template.parameters) ? template.parameters : {};
    expect(parameters.grantVerifyRunnerRole).toEqual(
      expect.objectContaining({ type: 'bool', defaultValue: false }),
    );
    expect(text(moduleNamed(template, 'key-vault').properties)).toContain(
      `"verifyRunnerPrincipalId":"[if(parameters('grantVerifyRunnerRole'), createObject('value', parameters('principalId')), createObject('value', ''))]"`,
    );
    const grant = allResources(template).find(
      ({ resource }) =>
        resource.type === 'Microsoft.Authorization/roleAssignments' &&
        text(resource.condition).includes("parameters('verifyRunnerPrincipalId')"),
    );
    expect(grant && roleDefinitionOf(grant)).toBe('4633458b-17de-408a-b874-0445c86b69e6');
  });

  it('turns Key Vault purge protection on by default (a parameter; the API takes only true or absent)', () => {
    const parameters = isObject(template.parameters) ? template.parameters : {};
    expect(parameters.keyVaultPurgeProtection).toEqual(
      expect.objectContaining({ type: 'bool', defaultValue: true }),
    );
    const vault = allResources(template).find(
      ({ resource }) => resource.type === 'Microsoft.KeyVault/vaults',
    );
    expect(text(vault?.resource.properties)).toContain(
      `"enablePurgeProtection":"[if(parameters('purgeProtection'), true(), null())]"`,
    );
  });

  it('never sets an AzureWebJobs.<function>.Disabled setting', () => {
    const { keys, strings } = keysAndStrings(template);
    expect(keys.filter((k) => /^AzureWebJobs\..+\.Disabled$/i.test(k))).toEqual([]);
    expect(strings.filter((s) => /AzureWebJobs\.[A-Za-z0-9_-]+\.Disabled/i.test(s))).toEqual([]);
    expect(JSON.stringify(template)).not.toContain(`AzureWebJobs.${GUARDED_FUNCTION_NAME}.Disabled`);
  });

  it('carries the live trigger switch over on redeploy instead of dropping it', () => {
    const appSettingsModule = moduleNamed(template, 'app-settings');
    const parameters = isObject(appSettingsModule.properties)
      ? appSettingsModule.properties.parameters
      : null;
    const live =
      isObject(parameters) && isObject(parameters.liveTriggerSwitches) ? parameters.liveTriggerSwitches : {};
    expect(text(live.value)).toMatch(/^\[toObject\(filter\(items\(list\('liveAppSettings'/);
    const config = allResources(template).find(
      ({ resource }) => resource.type === 'Microsoft.Web/sites/config' && resource.existing !== true,
    );
    expect(config).toBeDefined();
    expect(isObject(config!.resource.properties) ? '' : text(config!.resource.properties)).toMatch(
      /union\(.*parameters\('liveTriggerSwitches'\)\)\]$/,
    );
  });

  it('uses only catalogue and host setting names in the app settings', () => {
    const unknown = Object.keys(bicepAppSettings(template)).filter(
      (name) => !(name in settings) && !hostSettingPattern.test(name),
    );
    expect(unknown).toEqual([]);
  });

  it('provides every setting the app requires in Azure: loadConfig accepts them', () => {
    const config = loadConfig(simulatedAzureEnvironment());
    expect(config.control.mode).toBe('arm');
    expect(config.email.transport.provider).toBe('acs');
    expect(config.storage.kind).toBe('identity');
    expect(config.eventHub.connectionSetting).toBe('EventHubConnection');
    expect(config.managedIdentityClientId).toBeDefined();
  });

  it('provides the Redis connection when the breaker store is redis, signed in with Entra ID', () => {
    const url = 'rediss://00000000-0000-0000-0000-000000000000@amr-example.westeurope.redis.azure.net:10000';
    const config = loadConfig(simulatedAzureEnvironment({ BREAKER_STORE: 'redis', REDIS_CONNECTION: url }));
    expect(config.breaker.store).toBe('redis');
    expect(config.breaker.redisConnection).toBe(url);
    expect(config.operations.redisAuth).toBe('entra');
    // No access key anywhere: the URL is built from the host name and the identity's object id.
    expect(bicepAppSettings(template).REDIS_CONNECTION).toMatch(/outputs\.connectionUrl/);
    expect(JSON.stringify(template)).not.toMatch(/listKeys\(/);
  });

  it('keeps secrets out of outputs and app setting values', () => {
    for (const { resource } of allResources(template)) {
      const nested = isObject(resource.properties) ? resource.properties.template : undefined;
      if (isObject(nested))
        expect(JSON.stringify(nested.outputs ?? {})).not.toMatch(/listKeys|SigningKey'\)/);
    }
    expect(JSON.stringify(template.outputs)).not.toMatch(/listKeys|approvalSigningKey/);
    const values = bicepAppSettings(template);
    // Secret settings are Key Vault references, built by main.bicep's keyVaultReference function.
    expect(JSON.stringify(template.functions)).toContain('@Microsoft.KeyVault(SecretUri={0})');
    for (const name of ['APPROVAL_SIGNING_KEY', 'APPROVAL_SIGNING_KEY_PREVIOUS']) {
      expect(values[name]).toMatch(/__bicep\.keyVaultReference\(reference\('keyVault'\)\.outputs\./);
    }
    for (const name of ['WEBHOOK_URL', 'WEBHOOK_SIGNING_KEY']) {
      expect(values[name]).toMatch(
        /__bicep\.keyVaultReference\(reference\('webhook(Url|Key)Secret'\)\.outputs\./,
      );
    }
  });

  it('outputs in UPPER_SNAKE for azd', () => {
    const names = Object.keys(isObject(template.outputs) ? template.outputs : {});
    expect(names).toContain('AZURE_FUNCTION_APP_NAME');
    expect(names.filter((n) => !/^[A-Z][A-Z0-9_]*$/.test(n))).toEqual([]);
  });

  it('runs on Flex Consumption with Node 22 and the runtime outside app settings', () => {
    const plan = allResources(template).find(({ resource }) => resource.type === 'Microsoft.Web/serverfarms');
    expect(plan?.resource.sku).toEqual({ tier: 'FlexConsumption', name: 'FC1' });
    const site = allResources(template).find(({ resource }) => resource.type === 'Microsoft.Web/sites');
    const properties = site?.resource.properties;
    const functionAppConfig = isObject(properties) ? properties.functionAppConfig : undefined;
    expect(isObject(functionAppConfig) && functionAppConfig.runtime).toEqual({ name: 'node', version: '22' });
    expect(Object.keys(bicepAppSettings(template))).not.toContain('FUNCTIONS_WORKER_RUNTIME');
  });

  it('keeps shared-key access off on the storage account', () => {
    const storage = allResources(template).find(
      ({ resource }) => resource.type === 'Microsoft.Storage/storageAccounts',
    );
    const properties = storage?.resource.properties;
    expect(isObject(properties) && properties.allowSharedKeyAccess).toBe(false);
  });

  it('names the deployed tables, container, queue and consumer group as the catalogue defaults do', () => {
    const parameters = isObject(template.parameters) ? template.parameters : {};
    const defaultOf = (name: string) => {
      const p = parameters[name];
      return isObject(p) ? p.defaultValue : undefined;
    };
    expect(defaultOf('sinkTableName')).toBe(settings.SINK_TABLE_NAME.default);
    expect(defaultOf('breakerTableName')).toBe(settings.BREAKER_TABLE_NAME.default);
    expect(defaultOf('deadLetterContainerName')).toBe(settings.DEAD_LETTER_CONTAINER.default);
    expect(defaultOf('deadLetterQueueName')).toBe(settings.DEAD_LETTER_QUEUE.default);
    expect(defaultOf('maintenanceContainerName')).toBe(settings.MAINTENANCE_CONTAINER.default);
    expect(defaultOf('eventHubName')).toBe(settings.EVENTHUB_NAME.example);
    expect(defaultOf('consumerGroupName')).toBe(settings.EVENTHUB_CONSUMER_GROUP.example);
    expect(defaultOf('eventHubPartitionCount')).toBe(16);
    // Held events wait in the hub while the breaker is open: keep them as long as Standard allows.
    expect(defaultOf('eventHubRetentionDays')).toBe(7);
  });

  it('declares every blob container the app writes, so none depends on a create at run time', () => {
    const storage = moduleNamed(template, 'storage');
    const outer = isObject(template.parameters) ? template.parameters : {};
    const passed =
      isObject(storage.properties) && isObject(storage.properties.parameters)
        ? storage.properties.parameters
        : {};
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    // A container named by a module parameter: follow it to main.bicep's parameter and its default.
    const resolve = (inner: string) => {
      const value = passed[inner];
      const ref = isObject(value) ? /^\[parameters\('(\w+)'\)\]$/.exec(str(value.value))?.[1] : undefined;
      const p = ref === undefined ? undefined : outer[ref];
      return isObject(p) ? str(p.defaultValue) : `unresolved ${inner}`;
    };
    const containers = allResources(template)
      .filter(({ resource }) => resource.type === 'Microsoft.Storage/storageAccounts/blobServices/containers')
      .map(({ resource }) => {
        const name = str(resource.name);
        const literal = /'default', '([a-z0-9-]+)'\)\]$/.exec(name)?.[1];
        const param = /'default', parameters\('(\w+)'\)\)\]$/.exec(name)?.[1];
        return literal ?? (param === undefined ? name : resolve(param));
      });
    expect(containers).toEqual(
      expect.arrayContaining([
        NOTICE_LEDGER_CONTAINER,
        settings.DEAD_LETTER_CONTAINER.default,
        settings.MAINTENANCE_CONTAINER.default,
      ]),
    );
  });
});
