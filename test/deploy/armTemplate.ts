import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** A piece of compiled ARM JSON, walked without trusting its shape. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const repoRoot = resolve(import.meta.dirname, '..', '..');
let compiled: JsonObject | undefined;

/**
 * infra/main.json: infra/main.bicep compiled by `npm run build:infra` and committed, so the tests need no
 * Bicep CLI; `.ci/run` rebuilds it and fails when the committed copy is stale.
 */
export function readMainTemplate(): JsonObject {
  compiled ??= JSON.parse(readFileSync(resolve(repoRoot, 'infra', 'main.json'), 'utf8')) as JsonObject;
  return compiled;
}

export const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Resources of a template, whether it uses an array or symbolic names (languageVersion 2.0). */
export function resourcesOf(template: JsonObject): JsonObject[] {
  const resources = template.resources;
  const list = Array.isArray(resources) ? resources : isObject(resources) ? Object.values(resources) : [];
  return list.filter(isObject);
}

export interface Located {
  readonly resource: JsonObject;
  /** The (nested) template that declares the resource. */
  readonly template: JsonObject;
}

/** Every resource in the template and its nested deployments' templates. */
export function allResources(template: JsonObject): Located[] {
  const found: Located[] = [];
  for (const resource of resourcesOf(template)) {
    found.push({ resource, template });
    const properties = resource.properties;
    if (resource.type === 'Microsoft.Resources/deployments' && isObject(properties)) {
      const nested = properties.template;
      if (isObject(nested)) found.push(...allResources(nested));
    }
  }
  return found;
}

/** The nested deployment (module) with this deployment name. */
export function moduleNamed(template: JsonObject, name: string): JsonObject {
  const module = allResources(template).find(
    ({ resource }) => resource.type === 'Microsoft.Resources/deployments' && resource.name === name,
  );
  if (module === undefined) throw new Error(`no module deployment named ${name}`);
  return module.resource;
}

/** Every object key and every string anywhere in the JSON. */
export function keysAndStrings(value: Json, keys: string[] = [], strings: string[] = []) {
  if (typeof value === 'string') strings.push(value);
  else if (Array.isArray(value)) for (const item of value) keysAndStrings(item, keys, strings);
  else if (isObject(value))
    for (const [key, item] of Object.entries(value)) {
      keys.push(key);
      keysAndStrings(item, keys, strings);
    }
  return { keys, strings };
}

/** The literal app settings main.bicep passes to the function app module (name → value or expression). */
export function bicepAppSettings(template: JsonObject): Record<string, string> {
  const properties = moduleNamed(template, 'function-app').properties;
  const parameters = isObject(properties) ? properties.parameters : undefined;
  const appSettings = isObject(parameters) ? parameters.appSettings : undefined;
  const value = isObject(appSettings) ? appSettings.value : undefined;
  if (!isObject(value)) throw new Error('the function-app module receives no literal appSettings object');
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (typeof v !== 'string') throw new Error(`app setting ${key} is not a string`);
      return [key, v];
    }),
  );
}

/** True for an ARM template expression such as "[parameters('x')]" (a value known only at deployment). */
export const isExpression = (value: string): boolean => value.startsWith('[') && !value.startsWith('[[');

/** A JSON value as text: strings as they are, anything else as JSON. */
export const text = (value: Json | undefined): string =>
  typeof value === 'string' ? value : value === undefined ? 'undefined' : JSON.stringify(value);
