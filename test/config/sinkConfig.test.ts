import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/loadConfig';
import { minimal, problemsOf } from './configFixture';

const http = { ...minimal, SINK: 'http', SINK_HTTP_URL: 'https://api.example.com/v1/readings/' };

describe('the sink settings', () => {
  it('default to the sample Table sink', () => {
    expect(loadConfig(minimal).sink).toEqual({ kind: 'table' });
  });

  it('choose the HTTP sink, with the health endpoint on the same host by default', () => {
    expect(loadConfig(http).sink).toEqual({
      kind: 'http',
      url: 'https://api.example.com/v1/readings',
      healthUrl: 'https://api.example.com/health',
      timeoutMs: 10_000,
    });
    const custom = loadConfig({
      ...http,
      SINK: 'HTTP',
      SINK_HTTP_HEALTH_URL: 'https://status.example.com/ready',
      SINK_HTTP_TIMEOUT_MS: '2500',
    }).sink;
    expect(custom).toMatchObject({ healthUrl: 'https://status.example.com/ready', timeoutMs: 2500 });
  });

  it('require an http(s) URL when SINK=http, and name what is wrong', () => {
    expect(problemsOf({ ...minimal, SINK: 'http' })).toEqual([
      'SINK_HTTP_URL: is required when SINK=http, e.g. "https://api.example.com/v1/readings"',
    ]);
    expect(problemsOf({ ...http, SINK_HTTP_URL: 'ftp://api.example.com/readings' })).toEqual([
      expect.stringMatching(/^SINK_HTTP_URL: expected an http\(s\) URL, e\.g\. /),
    ]);
    expect(problemsOf({ ...http, SINK_HTTP_URL: 'api.example.com' })).toHaveLength(1);
    expect(problemsOf({ ...minimal, SINK: 'queue' })).toEqual([
      expect.stringMatching(/^SINK: expected one of table \| http/),
    ]);
  });

  it('refuse credentials in the URL and a timeout that would use up the batch deadline', () => {
    expect(problemsOf({ ...http, SINK_HTTP_URL: 'https://user:secret@api.example.com/readings' })).toEqual([
      'SINK_HTTP_URL: must not carry a user name or password',
    ]);
    expect(problemsOf({ ...http, SINK_HTTP_TIMEOUT_MS: '60000', BATCH_DEADLINE_MS: '60000' })).toEqual([
      expect.stringMatching(/^SINK_HTTP_TIMEOUT_MS: must be under BATCH_DEADLINE_MS \(60000\)/),
    ]);
  });
});
