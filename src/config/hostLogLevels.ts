import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Environment } from './environment';
import { ConfigError, type ConfigProblem } from './errors';

/**
 * host.json `logging.logLevel`, applied in the worker. In OpenTelemetry mode the host filters only its
 * own logs by these levels; what the worker exports it must filter itself (platform-facts.md, "OpenTelemetry
 * mode"). The rules are read as .NET's logger filter reads them: the longest category prefix that matches
 * (case-insensitive) wins, else `default`, else Information.
 */
const levelNames = ['Trace', 'Debug', 'Information', 'Warning', 'Error', 'Critical', 'None'] as const;
export type HostLogLevel = (typeof levelNames)[number];

/** The lowest OpenTelemetry severity number each level lets through (None: nothing). */
const minimumSeverity: Record<HostLogLevel, number> = {
  Trace: 1,
  Debug: 5,
  Information: 9,
  Warning: 13,
  Error: 17,
  Critical: 21,
  None: Number.POSITIVE_INFINITY,
};

export interface HostLogLevels {
  /** The level that applies to a category (e.g. `Function.BreakerWatchdog.User`). */
  levelFor(category: string): HostLogLevel;
  /** Whether a record of this severity number in this category is kept. */
  keeps(category: string, severityNumber: number): boolean;
}

/** The rules of a parsed host.json; a level that is not one of .NET's names is a ConfigError. */
export function hostLogLevels(hostJson: unknown): HostLogLevels {
  const given = logLevelSection(hostJson);
  const problems: ConfigProblem[] = [];
  const rules: { prefix: string; level: HostLogLevel }[] = [];
  let fallback: HostLogLevel = 'Information';
  for (const [key, value] of Object.entries(given)) {
    const level = levelNames.find(
      (n) => typeof value === 'string' && n.toLowerCase() === value.toLowerCase(),
    );
    if (level === undefined) {
      problems.push({
        setting: `host.json logging.logLevel.${key.slice(0, 100)}`,
        message: `must be one of ${levelNames.join(', ')}`,
      });
      continue;
    }
    if (key.toLowerCase() === 'default') fallback = level;
    else rules.push({ prefix: key.toLowerCase(), level });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const levelFor = (category: string): HostLogLevel => {
    const name = category.toLowerCase();
    let best: { prefix: string; level: HostLogLevel } | undefined;
    for (const rule of rules)
      if (name.startsWith(rule.prefix) && (best === undefined || rule.prefix.length > best.prefix.length))
        best = rule;
    return best?.level ?? fallback;
  };
  return {
    levelFor,
    keeps: (category, severityNumber) => severityNumber >= minimumSeverity[levelFor(category)],
  };
}

const OVERRIDE = /^AzureFunctionsJobHost__logging__logLevel__(.+)$/i;

/**
 * host.json of the app in `root` (the Functions host's script root; none there: the defaults), with the
 * app settings that override it for the host (`AzureFunctionsJobHost__logging__logLevel__<category>`),
 * which the worker sees in its environment too.
 */
export function readHostLogLevels(root: string, env: Environment = {}): HostLogLevels {
  let text: string;
  try {
    text = readFileSync(join(root, 'host.json'), 'utf8');
  } catch {
    return hostLogLevels(withOverrides({}, env));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([{ setting: 'host.json', message: `is not JSON: ${String(error).slice(0, 200)}` }]);
  }
  return hostLogLevels(withOverrides(parsed, env));
}

function withOverrides(hostJson: unknown, env: Environment): unknown {
  const overrides = Object.entries(env).flatMap(([name, value]) => {
    const key = OVERRIDE.exec(name)?.[1];
    return key === undefined || value === undefined ? [] : [[key, value] as const];
  });
  if (overrides.length === 0) return hostJson;
  const root = isRecord(hostJson) ? hostJson : {};
  const logging = isRecord(root.logging) ? root.logging : {};
  const given = logLevelSection(hostJson);
  // A setting names its category in any case; it replaces host.json's key of that name.
  const merged = Object.fromEntries(
    Object.entries(given).filter(([k]) => !overrides.some(([o]) => o.toLowerCase() === k.toLowerCase())),
  );
  for (const [key, value] of overrides) merged[key] = value;
  return { ...root, logging: { ...logging, logLevel: merged } };
}

function logLevelSection(hostJson: unknown): Record<string, unknown> {
  const logging = isRecord(hostJson) ? hostJson.logging : undefined;
  const section = isRecord(logging) ? logging.logLevel : undefined;
  if (section === undefined) return {};
  if (!isRecord(section))
    throw new ConfigError([{ setting: 'host.json logging.logLevel', message: 'must be an object' }]);
  return section;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
