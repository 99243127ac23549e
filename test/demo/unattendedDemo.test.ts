import { expect, inject, it } from 'vitest';

import { parseDemoArgs } from '../../demo/args';
import { runDemo } from '../../demo/main';

// `npm run demo -- --scenario unattended`, compressed further: the hub keeps events 2 simulated
// minutes, the downstream is back after 200 s, the operator approves 4 minutes after the email. Red until
// the app's retention guard saves what waits before the retention (then drains it after the approval).
it('unattended: nobody approves within the retention, the app saves what waits, a late approval drains it, nothing lost', async () => {
  const parsed = parseDemoArgs([
    '--scenario',
    'unattended',
    '--retention',
    '120',
    '--events',
    '120',
    '--send-seconds',
    '20',
    '--partitions',
    '2',
    '--outage-start',
    '5',
    '--outage-seconds',
    '200',
    '--auto-approve',
    '240',
  ]);
  if (parsed.kind !== 'run') throw new Error('expected a run');
  expect(parsed.options).toMatchObject({ scenario: 'unattended', speed: 0, retentionSeconds: 120 });
  const lines: string[] = [];
  const result = await runDemo(
    parsed.options,
    { storageConnectionString: inject('storageConnectionString'), redisUrl: inject('redisUrl') },
    {
      print: (line) => lines.push(line),
      sleep: () => Promise.reject(new Error('the test must not sleep')),
      wallNow: () => 0,
    },
  );
  const output = lines.join('\n');
  expect(output).toContain('Hub retention: 2 minutes');
  expect(output).toMatch(/approval link followed \(HTTP 200\)/);
  expect(result.summary, output).toMatchObject({ sent: 120, lost: 0, held: 0, settled: true });
  expect(result.summary.saved, output).toBeGreaterThan(0);
  expect(output).toMatch(/\| saved before retention \| +[1-9]\d* \|/);
  expect(output).toMatch(/\| lost +\| +0 \|/);
  expect(output).toContain("in order: every key's events reached the sink in sequence order");
  expect(result.exitCode).toBe(0);
}, 30_000);
