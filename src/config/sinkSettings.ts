import { httpUrl, integer, oneOf } from './settingKinds';

/** The sink kinds a setting can choose; one list, imported wherever they are named. */
export const sinkKinds = ['table', 'http'] as const;
export type SinkKind = (typeof sinkKinds)[number];

/**
 * Settings of the downstream sink (part of the one catalogue in settings.ts, kept here so that file
 * stays small). See docs/your-own-downstream.md.
 */
export const sinkSettings = {
  SINK: oneOf(sinkKinds, {
    description:
      'Downstream the readings go to: table (the sample home activity table) or http (an HTTP API, SINK_HTTP_URL).',
    default: 'table',
    example: 'table',
  }),
  SINK_HTTP_URL: httpUrl({
    description:
      'When SINK=http: the endpoint each reading is POSTed to, with an Idempotency-Key header. No credentials in the URL.',
    example: 'https://api.example.com/v1/readings',
  }),
  SINK_HTTP_HEALTH_URL: httpUrl({
    description:
      'When SINK=http: the endpoint the health probe GETs (2xx = healthy); defaults to /health on the same host.',
    example: 'https://api.example.com/health',
  }),
  SINK_HTTP_TIMEOUT_MS: integer({
    description:
      'When SINK=http: bound of one request, answer included; a request cut off counts as outage-like. Must be under BATCH_DEADLINE_MS.',
    default: '10000',
    example: '10000',
    min: 100,
    max: 120_000,
  }),
} as const;
