import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The Bicep parameter that sets the deployed hub's `messageRetentionInDays` (infra/main.bicep). */
export const RETENTION_PARAMETER = 'eventHubRetentionDays';

const DAY_MS = 86_400_000;
const DEFAULT_INFRA_JSON = path.join(__dirname, '../../infra/main.json');
const read = new Map<string, number>();

/**
 * The deployed hub's retention in ms: the default of `eventHubRetentionDays` in `infra/main.json` (built
 * from infra/main.bicep), read rather than copied so the simulator keeps what a deployment keeps.
 */
export function deployedRetentionMs(infraJson = DEFAULT_INFRA_JSON): number {
  const cached = read.get(infraJson);
  if (cached !== undefined) return cached;
  const template = JSON.parse(readFileSync(infraJson, 'utf8')) as {
    parameters?: Record<string, { defaultValue?: unknown }>;
  };
  const days = template.parameters?.[RETENTION_PARAMETER]?.defaultValue;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1)
    throw new Error(`${infraJson}: parameter ${RETENTION_PARAMETER} has no whole-day default`);
  read.set(infraJson, days * DAY_MS);
  return days * DAY_MS;
}

/** A retention a world or scenario was given: a positive whole number of simulated ms, else a clear error. */
export function checkedRetentionMs(ms: number, setting: string): number {
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new RangeError(`${setting} must be a positive whole number of milliseconds, got ${String(ms)}`);
  return ms;
}
