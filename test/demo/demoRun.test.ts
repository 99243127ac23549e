import { expect, inject, it } from 'vitest';

import { defaultDemoOptions } from '../../demo/args';
import { runDemo } from '../../demo/main';

it('runs the demo loop at full speed: trips, disables, emails, auto-approves, resumes, loses nothing', async () => {
  const lines: string[] = [];
  const result = await runDemo(
    {
      ...defaultDemoOptions,
      speed: 0,
      partitions: 16,
      events: 320,
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
  expect(result.summary).toMatchObject({ sent: 320, held: 0, lost: 0, settled: true });
  expect(result.summary.processed + result.summary.deadLettered).toBe(320);
  expect(output).toContain('!! TRIPPED');
  expect(output).toContain('trigger DISABLED');
  expect(output).toMatch(/approval link: http:\/\/127\.0\.0\.1:\d+\/api\/approve\?token=/);
  expect(output).toContain('approval link followed (HTTP 200)');
  expect(output).toContain('trigger ENABLED');
  expect(output).toMatch(/\| lost +\| +0 \|/);
  // The outage dead-letters nothing, and every partition reaches the sink in order.
  expect(output).toMatch(/dead-lettered by reason: poison \d+ \(not a valid reading\), failed 0 /);
  expect(output).toContain("in order: every key's events reached the sink in sequence order (ORDERING=key");
  expect(output).toMatch(/held batches and re-runs per partition/);
}, 60_000);
