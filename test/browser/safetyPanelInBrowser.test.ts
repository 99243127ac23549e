/**
 * The operator's 3 a.m. question, in Chromium: is approving safe? The app's hub sits behind the Event
 * Hubs peer and the trigger host model delivers from it. A trip with the downstream still down shows the
 * failing probe and needs "approve anyway"; with the downstream back, the page shows it healthy, the
 * events held per partition and the oldest age, and approving works. Screenshots of both states go to
 * .test-output/screenshots; `UPDATE_DOCS_SCREENSHOTS=1` writes them to docs/ instead
 * (docs/notify-and-control.md shows one).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { HELD_ENVIRONMENT, HeldBacklogWorld } from '../e2e/worlds/heldBacklogWorld';
import { type Browser, SCREENSHOT_DIR, startChromium } from '../support/chromium';

const SHOTS =
  process.env.UPDATE_DOCS_SCREENSHOTS === '1' ? path.join(__dirname, '..', '..', 'docs') : SCREENSHOT_DIR;
let w: HeldBacklogWorld;
let browser: Browser;
let link: string;

beforeAll(async () => {
  w = await HeldBacklogWorld.create(inject('storageConnectionString'));
  w.send(48, 7, 'early');
  await w.second();
  w.world.clock.advance(300_000);
  w.send(40, 7, 'late');
  w.world.downstreamDown = true;
  link = await w.untilTrippedAndDisabled();
  for (let minute = 0; minute < 3; minute++) {
    w.world.clock.advance(60_000);
    await w.world.runWatchdog();
  }
  browser = await startChromium({ width: 760, height: 900 });
  await mkdir(SHOTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser.close();
  await w.close();
});

async function heldOnPage(page: Page): Promise<[string | null, number][]> {
  const rows = await page.locator('#held tbody tr').all();
  return Promise.all(
    rows.map(async (r): Promise<[string | null, number]> => [
      await r.getAttribute('data-partition'),
      Number(await r.getAttribute('data-held')),
    ]),
  );
}

describe('the approval page in Chromium', () => {
  it('with the downstream still down: shows the failing probe and requires "approve anyway"', async () => {
    const page = await browser.context.newPage();
    expect((await page.goto(link))?.status()).toBe(200);
    expect(await page.locator('#environment').textContent()).toBe(HELD_ENVIRONMENT);
    expect(await page.locator('#downstream').getAttribute('data-health')).toBe('error');
    expect(await page.locator('#downstream').textContent()).toMatch(
      /still failing: downstream unavailable.*, since \d\d:\d\d UTC/,
    );
    expect(await page.locator('#approve').textContent()).toBe('Approve anyway');

    // The browser will not submit without the tick (required), and the server refuses it too.
    await page.fill('#approver', 'Robin On-Call');
    await page.click('#approve');
    expect(await page.locator('#anyway:invalid').count()).toBe(1);
    expect(page.url()).toBe(link);
    const token = new URL(link).searchParams.get('token') ?? '';
    const plain = await fetch(new URL('approve', link), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, approver: 'Robin On-Call' }).toString(),
    });
    expect(plain.status).toBe(400);
    expect(w.host.isListening).toBe(false);

    await page.screenshot({ path: path.join(SHOTS, 'approval-downstream-failing.png'), fullPage: true });
    await page.close();
  });

  it('with the downstream back: shows it healthy, the held events per partition and the oldest age; approving works', async () => {
    w.world.downstreamDown = false;
    for (let minute = 0; minute < 5; minute++) {
      w.world.clock.advance(60_000);
      await w.world.runWatchdog();
    }
    const page = await browser.context.newPage();
    await page.goto(link);
    expect(await page.locator('#downstream').getAttribute('data-health')).toBe('ok');
    expect(await page.locator('#downstream').textContent()).toMatch(
      /^downstream healthy for 4 min \(last probe \d\d:\d\d:\d\d UTC\)$/,
    );
    expect(await page.locator('#anyway').count()).toBe(0);

    const truth = w.truth().filter((t) => t.held > 0);
    expect(await heldOnPage(page)).toEqual(truth.map((t) => [t.partitionId, t.held]));
    expect(await page.locator('#held-oldest').textContent()).toMatch(
      /^oldest 1[0-9] min old \(enqueued .*\); retention drops it in 23 h/,
    );
    await page.screenshot({ path: path.join(SHOTS, 'approval-downstream-healthy.png'), fullPage: true });

    await page.fill('#approver', 'Robin On-Call');
    await Promise.all([page.waitForURL(/\/api\/approve$/), page.click('#approve')]);
    expect(await page.locator('h1').textContent()).toBe('Restart approved');
    expect(await page.locator('#next').textContent()).toContain(
      'processing resumes from the last checkpoint',
    );
    expect(await page.locator('#dashboard-link').getAttribute('href')).toBe('breaker/dashboard');

    // The orchestration resumes the trigger; the host model delivers what was held.
    for (let s = 0; s < 120 && !w.host.drained; s++) await w.second();
    expect(w.host.isListening).toBe(true);
    expect(w.host.drained).toBe(true);
    await page.close();
  });
});
