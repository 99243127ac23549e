import { describe, expect, it } from 'vitest';

import { allResources, isObject, moduleNamed, readMainTemplate, text } from './armTemplate';

const template = readMainTemplate();
const parameters = isObject(template.parameters) ? template.parameters : {};
const resourcesOfType = (type: string) =>
  allResources(template)
    .map(({ resource }) => resource)
    .filter((r) => r.type === type);

describe('vnetEnabled: private networking, off by default', () => {
  it('is a parameter that defaults to false', () => {
    expect(parameters.vnetEnabled).toEqual(expect.objectContaining({ type: 'bool', defaultValue: false }));
  });

  it('creates the network and one private endpoint per sub-resource only when enabled', () => {
    expect(text(moduleNamed(template, 'network').condition)).toContain("variables('privateNetworking')");
    expect(text(moduleNamed(template, 'network').condition)).toContain("not(variables('bringsNetwork'))");
    expect(text(isObject(template.variables) ? template.variables.privateNetworking : null)).toContain(
      "parameters('vnetEnabled')",
    );
    const endpoints = moduleNamed(
      template,
      "[format('private-endpoint-{0}', variables('privateEndpointGroups')[copyIndex()])]",
    );
    expect(text(endpoints.condition)).toContain("variables('privateNetworking')");
    const groups = text(isObject(template.variables) ? template.variables.privateEndpointGroups : null);
    for (const group of ['blob', 'queue', 'table', 'namespace', 'vault', 'redisEnterprise'])
      expect(groups).toContain(`'${group}'`);
  });

  it('has a private DNS zone for each endpoint, linked to the network', () => {
    const zones = text(isObject(template.variables) ? template.variables.privateDnsZones : null);
    for (const zone of [
      'privatelink.blob.',
      'privatelink.queue.',
      'privatelink.table.',
      'privatelink.servicebus.windows.net',
      'vaultcore',
      'privatelink.redis.azure.net',
    ])
      expect(zones).toContain(zone);
    expect(resourcesOfType('Microsoft.Network/privateDnsZones/virtualNetworkLinks')).toHaveLength(1);
  });

  it('turns public network access off on storage, Event Hubs, Key Vault and Redis when enabled', () => {
    for (const type of [
      'Microsoft.Storage/storageAccounts',
      'Microsoft.EventHub/namespaces',
      'Microsoft.KeyVault/vaults',
      'Microsoft.Cache/redisEnterprise',
    ]) {
      const [resource] = resourcesOfType(type);
      expect(text(resource?.properties), type).toContain(
        `"publicNetworkAccess":"[if(parameters('publicNetworkAccessDisabled'), 'Disabled', 'Enabled')]"`,
      );
    }
    for (const name of ['storage', 'event-hubs', 'key-vault', 'redis'])
      expect(text(moduleNamed(template, name).properties), name).toContain(
        `"publicNetworkAccessDisabled":{"value":"[variables('privateNetworking')]"}`,
      );
  });

  it('integrates the function app with the delegated subnet when enabled', () => {
    const [site] = resourcesOfType('Microsoft.Web/sites');
    expect(text(site?.properties)).toContain(
      '"virtualNetworkSubnetId":"[if(empty(parameters(\'virtualNetworkSubnetId\')), null(), parameters(\'virtualNetworkSubnetId\'))]"',
    );
    const [vnet] = resourcesOfType('Microsoft.Network/virtualNetworks');
    expect(text(vnet?.properties)).toContain('"serviceName":"Microsoft.App/environments"');
  });
});
