import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { AzureSetupError } from './azureSetupError';

export type Environment = Readonly<Record<string, string | undefined>>;

/** The azd environment the run uses and how it was chosen; undefined when none is selected. */
export function selectedAzdEnvironment(
  cwd: string,
  env: Environment,
  explicit: string | undefined,
): { readonly name: string; readonly source: string } | undefined {
  if (explicit !== undefined) return { name: explicit, source: '--env' };
  const fromEnv = env.AZURE_ENV_NAME?.trim();
  if (fromEnv) return { name: fromEnv, source: 'AZURE_ENV_NAME' };
  const configPath = join(cwd, '.azure', 'config.json');
  if (!existsSync(configPath)) return undefined;
  try {
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as { defaultEnvironment?: unknown };
    return typeof config.defaultEnvironment === 'string' && config.defaultEnvironment.trim() !== ''
      ? { name: config.defaultEnvironment.trim(), source: '.azure/config.json' }
      : undefined;
  } catch {
    throw new AzureSetupError(`${configPath} is not valid JSON; run \`azd env select <name>\` or pass --env`);
  }
}

/** What the run needs from the azd environment: the outputs of infra/main.bicep that azd stores. */
export const AZD_VALUES = [
  'AZURE_SUBSCRIPTION_ID',
  'AZURE_RESOURCE_GROUP',
  'AZURE_FUNCTION_APP_NAME',
  'SERVICE_API_URI',
  'EVENTHUB_FULLY_QUALIFIED_NAMESPACE',
  'EVENTHUB_NAME',
  'EVENTHUB_CONSUMER_GROUP',
  'AZURE_STORAGE_ACCOUNT_NAME',
  'AZURE_KEY_VAULT_NAME',
] as const;
export type AzdValues = Record<(typeof AZD_VALUES)[number], string>;

/** Reads `.azure/<name>/.env` (azd's dotenv file); every missing value is named in one line. */
export function readAzdEnvironment(cwd: string, name: string): AzdValues {
  const path = join(cwd, '.azure', name, '.env');
  if (!existsSync(path))
    throw new AzureSetupError(
      `azd environment "${name}" has no .azure/${name}/.env: run \`azd up\` first, or pass --target local`,
    );
  const values = parseDotenv(readFileSync(path, 'utf8'));
  const missing = AZD_VALUES.filter((k) => !values.get(k));
  if (missing.length > 0)
    throw new AzureSetupError(
      `azd environment "${name}" lacks ${missing.join(', ')}: run \`azd up\` (or \`azd env refresh\`)`,
    );
  return Object.fromEntries(AZD_VALUES.map((k) => [k, values.get(k) ?? ''])) as AzdValues;
}

/** `KEY=value`, `KEY="value"` (with \" and \n escapes) and `KEY='value'`, as azd writes them. */
export function parseDotenv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m?.[1] || line.trimStart().startsWith('#')) continue;
    const raw = m[2] ?? '';
    const value =
      raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2
        ? raw.slice(1, -1).replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\')
        : raw.startsWith("'") && raw.endsWith("'") && raw.length >= 2
          ? raw.slice(1, -1)
          : raw;
    out.set(m[1], value);
  }
  return out;
}
