/**
 * The demo as a newcomer meets it: `npm run demo` without --auto-approve prints the emailed link, a person
 * opens it in a browser, reads what is held, and presses Approve. The page must show the held events per
 * partition, the oldest event's age and the time left before retention, as a deployment's page does,
 * with dates of the run's own day.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';

import { defaultDemoOptions } from '../../demo/args';
import { type DemoResult, runDemo } from '../../demo/main';
import { type Browser, startChromium } from '../support/chromium';

/**
 * The run's "today": the demo starts its simulated clock here (run.ts gives the real time). It must be
 * near the real time: the Event Hubs client signs its tokens with the real clock, the peer checks them
 * against the simulated one, as the service checks them against its own.
 */
const START = Date.now();
const startDay = new Date(START).toISOString().slice(0, 10);

let browser: Browser;
beforeAll(async () => {
  browser = await startChromium({ width: 760, height: 900 });
}, 60_000);
afterAll(async () => {
  await browser.close();
});

it("shows what is held on the demo's own approval page, and approving there resumes with nothing lost", async () => {
  const lines: string[] = [];
  let link: string | undefined;
  // The demo paces itself with `sleep`; the test holds it still once the downstream is back and the link
  // is out, reads the page and approves, then lets it run on.
  let paused: (() => void) | undefined;
  let release: (() => void) | undefined;
  const pausedAtApproval = new Promise<void>((resolve) => (paused = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let hold = false;
  let wall = START;
  const demo: Promise<DemoResult> = runDemo(
    {
      ...defaultDemoOptions,
      speed: 1000,
      partitions: 4,
      events: 200,
      sendSeconds: 20,
      outageStart: 5,
      outageSeconds: 30,
      autoApproveSeconds: undefined,
    },
    { storageConnectionString: inject('storageConnectionString'), redisUrl: inject('redisUrl') },
    {
      print: (line) => {
        lines.push(line);
        link ??= /approval link: (\S+)/.exec(line)?.[1];
        if (link !== undefined && line.includes('downstream back ONLINE')) hold = true;
      },
      sleep: async (ms) => {
        wall += ms;
        if (!hold) return;
        paused?.();
        await released;
      },
      wallNow: () => wall,
      startAt: START,
    },
  );
  await Promise.race([pausedAtApproval, demo]);
  expect(link, lines.join('\n')).toBeDefined();

  const page = await browser.context.newPage();
  expect((await page.goto(link ?? ''))?.status()).toBe(200);
  const held = await page.locator('#held tbody tr').all();
  const counts = await Promise.all(held.map(async (r) => Number(await r.getAttribute('data-held'))));
  expect(counts.length).toBeGreaterThan(0);
  expect(counts.every((n) => n > 0)).toBe(true);
  expect(await page.locator('#held-oldest').textContent()).toMatch(
    new RegExp(
      `^oldest (under 1|\\d+) min old \\(enqueued ${startDay} \\d\\d:\\d\\d UTC\\); the first loss in \\d+ d \\d+ h .*saved before the deadline by the retention guard at .* unless approved$`,
    ),
  );
  expect(await page.textContent('body')).not.toMatch(/unknown|AggregateError/);

  await page.fill('#approver', 'Robin On-Call');
  if ((await page.locator('#anyway').count()) > 0) await page.check('#anyway');
  await Promise.all([page.waitForURL(/\/api\/approve$/), page.click('#approve')]);
  expect(await page.locator('h1').textContent()).toBe('Restart approved');
  await page.close();

  hold = false;
  release?.();
  const result = await demo;
  const output = lines.join('\n');
  expect(result.exitCode, output).toBe(0);
  expect(result.summary).toMatchObject({ sent: 200, held: 0, lost: 0, settled: true });
  expect(output).toContain('approval received from the approval page');
}, 120_000);
