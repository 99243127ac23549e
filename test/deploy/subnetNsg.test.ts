import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import {
  allResources,
  isObject,
  type JsonObject,
  moduleNamed,
  readMainTemplate,
  repoRoot,
  text,
} from './armTemplate';

/**
 * Landing-zone policy Deny-Subnet-Without-Nsg refuses a deployment that creates a subnet without a
 * network security group. Every subnet the compiled template can create (inline in a virtual network or
 * as a subnets resource) must name one. The template is one for every variant; the variants
 * (infra/variants/*.bicepparam) differ in which conditional modules deploy, checked below.
 */
export function subnetsWithoutNsg(template: JsonObject): string[] {
  const missing: string[] = [];
  for (const { resource } of allResources(template)) {
    const properties = isObject(resource.properties) ? resource.properties : {};
    const inline =
      resource.type === 'Microsoft.Network/virtualNetworks' && Array.isArray(properties.subnets)
        ? properties.subnets.filter(isObject)
        : [];
    const standalone = resource.type === 'Microsoft.Network/virtualNetworks/subnets' ? [resource] : [];
    for (const subnet of [...inline, ...standalone]) {
      const subnetProperties = isObject(subnet.properties) ? subnet.properties : {};
      const nsg = subnetProperties.networkSecurityGroup;
      if (!isObject(nsg) || typeof nsg.id !== 'string' || nsg.id === '') missing.push(text(subnet.name));
    }
  }
  return missing;
}

const template = readMainTemplate();
const variant = (name: string) =>
  readFileSync(resolve(repoRoot, 'infra', 'variants', `${name}.bicepparam`), 'utf8');

describe('every subnet the template creates has a network security group', () => {
  it('finds the two subnets of the created network, each with its NSG', () => {
    const vnets = allResources(template).filter(
      ({ resource }) => resource.type === 'Microsoft.Network/virtualNetworks',
    );
    expect(vnets).toHaveLength(1);
    expect(subnetsWithoutNsg(template)).toEqual([]);
    const nsgs = allResources(template).filter(
      ({ resource }) => resource.type === 'Microsoft.Network/networkSecurityGroups',
    );
    expect(nsgs).toHaveLength(2);
  });

  it('reports a subnet without an NSG', () => {
    const bare: JsonObject = {
      resources: [
        {
          type: 'Microsoft.Network/virtualNetworks',
          name: 'vnet',
          properties: { subnets: [{ name: 'app', properties: { addressPrefix: '10.0.1.0/24' } }] },
        },
      ],
    };
    expect(subnetsWithoutNsg(bare)).toEqual(['app']);
  });

  it('takes the address space and subnet prefixes from parameters, not a fixed 10.0.0.0/16', () => {
    const properties = moduleNamed(template, 'network').properties;
    const parameters = text(isObject(properties) ? properties.parameters : null);
    expect(parameters).toContain(`"addressPrefix":{"value":"[parameters('vnetAddressPrefix')]"}`);
    expect(parameters).toContain(`"appSubnetPrefix":{"value":"[parameters('appSubnetPrefix')]"}`);
    expect(parameters).toContain(
      `"privateEndpointSubnetPrefix":{"value":"[parameters('privateEndpointSubnetPrefix')]"}`,
    );
  });
});

describe('bring your own network', () => {
  it('creates no network and no privatelink zone when existing subnets and zones are given', () => {
    const network = moduleNamed(template, 'network');
    expect(text(network.condition)).toContain("not(variables('bringsNetwork'))");
    const variables = isObject(template.variables) ? template.variables : {};
    expect(text(variables.bringsNetwork)).toContain("parameters('existingAppSubnetId')");
    expect(text(variables.bringsNetwork)).toContain("parameters('existingPrivateEndpointSubnetId')");
    const properties = isObject(network.properties) ? network.properties : {};
    expect(text(properties.parameters)).toContain(
      "if(variables('bringsDnsZones'), createObject('value', createArray())",
    );
  });

  it('has a CI variant with existing subnets and a zone id for every endpoint kind', () => {
    const byo = variant('byo-network');
    expect(byo).toMatch(/param existingAppSubnetId = '.+'/);
    expect(byo).toMatch(/param existingPrivateEndpointSubnetId = '.+'/);
    for (const kind of ['blob', 'queue', 'table', 'namespace', 'vault', 'redisEnterprise'])
      expect(byo).toContain(`${kind}: '`);
    expect(variant('vnet-redis')).toContain('param vnetEnabled = true');
    expect(variant('public-table')).toContain('param vnetEnabled = false');
  });
});
