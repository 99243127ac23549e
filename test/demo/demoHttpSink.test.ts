import { expect, inject, it } from 'vitest';

import { defaultDemoOptions } from '../../demo/args';
import { runDemo } from '../../demo/main';

it('runs the demo on the HTTP sink: the local API goes down, the breaker trips, nothing is lost', async () => {
  const lines: string[] = [];
  const result = await runDemo(
    {
      ...defaultDemoOptions,
      sink: 'http',
      speed: 0,
      partitions: 4,
      events: 240,
      sendSeconds: 20,
      outageStart: 5,
      outageSeconds: 20,
      autoApproveSeconds: 10,
    },
    { storageConnectionString: inject('storageConnectionString'), redisUrl: inject('redisUrl') },
    {
      print: (line) => lines.push(line),
      sleep: () => Promise.reject(new Error('the test must not sleep')),
      wallNow: () => 0,
    },
  );
  const output = lines.join('\n');
  expect(result.exitCode, output).toBe(0);
  expect(output).toMatch(/Downstream: an HTTP API at http:\/\/127\.0\.0\.1:\d+\/readings/);
  expect(result.summary).toMatchObject({ sent: 240, held: 0, lost: 0, settled: true });
  expect(output).toContain('!! TRIPPED');
  expect(output).toContain('trigger ENABLED');
}, 90_000);
