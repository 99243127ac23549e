import type { SinkConfig } from './appConfig';
import type { ConfigProblem } from './errors';
import type { SettingValues } from './settingValues';

type SinkSettingValues = Pick<
  SettingValues,
  'SINK' | 'SINK_HTTP_URL' | 'SINK_HTTP_HEALTH_URL' | 'SINK_HTTP_TIMEOUT_MS' | 'BATCH_DEADLINE_MS'
>;

/** The sink choice and, for http, its endpoints; every problem is added to `problems`. */
export function readSinkConfig(
  settings: SinkSettingValues,
  problems: ConfigProblem[],
): SinkConfig | undefined {
  const v = {
    kind: settings.SINK,
    url: settings.SINK_HTTP_URL,
    healthUrl: settings.SINK_HTTP_HEALTH_URL,
    timeoutMs: settings.SINK_HTTP_TIMEOUT_MS,
    batchDeadlineMs: settings.BATCH_DEADLINE_MS,
  };
  if (v.kind === 'table') return { kind: 'table' };
  if (v.kind !== 'http') return undefined;
  if (v.url === undefined) {
    if (!problems.some((p) => p.setting === 'SINK_HTTP_URL'))
      problems.push({
        setting: 'SINK_HTTP_URL',
        message: 'is required when SINK=http, e.g. "https://api.example.com/v1/readings"',
      });
    return undefined;
  }
  const url = new URL(v.url);
  // Credentials in a URL end up in logs and error reports; the API's auth belongs in a header.
  for (const [setting, value] of [
    ['SINK_HTTP_URL', url],
    ['SINK_HTTP_HEALTH_URL', v.healthUrl === undefined ? undefined : new URL(v.healthUrl)],
  ] as const) {
    if (value && (value.username !== '' || value.password !== ''))
      problems.push({ setting, message: 'must not carry a user name or password' });
  }
  if (v.timeoutMs !== undefined && v.batchDeadlineMs !== undefined && v.timeoutMs >= v.batchDeadlineMs)
    problems.push({
      setting: 'SINK_HTTP_TIMEOUT_MS',
      message: `must be under BATCH_DEADLINE_MS (${v.batchDeadlineMs}), so a hung request cannot use up the batch`,
    });
  if (v.timeoutMs === undefined) return undefined;
  return {
    kind: 'http',
    url: v.url,
    healthUrl: v.healthUrl ?? `${url.origin}/health`,
    timeoutMs: v.timeoutMs,
  };
}
