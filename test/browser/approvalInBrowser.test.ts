import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type FunctionsHttpServer, startFunctionsHttpServer } from '../../sim/host/functionsHttpServer';
import { approvalLink } from '../../src/approval/approvalLink';
import { signApprovalToken, verifyApprovalToken } from '../../src/approval/approvalToken';
import { registerApproval } from '../../src/approval/registerApproval';
import { registerOperator } from '../../src/operator/registerOperator';
import { durableOrchestrationControl } from '../../src/orchestration/durableOrchestrationControl';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { memoryTriggerSwitch, POLICY } from '../operator/operatorFixture';
import { type Browser, SCREENSHOT_DIR, startChromium } from '../support/chromium';
import { freshMaintenanceRecord } from '../support/maintenanceRecords';
import { memoryBreakerStore } from '../support/memoryBreakerStore';
import { type RecordingDurableServer, startRecordingDurableServer } from '../support/recordingDurableServer';

const FN = 'ProcessSensorEvents';
const KEYS = ['browser-test-signing-key-0123456789abcdef'] as const;
const FUNCTION_KEY = 'test-function-key';
let now = Date.UTC(2026, 10, 29, 12, 0, 0);
const clock = { now: () => now };

const store = memoryBreakerStore({
  threshold: POLICY.threshold,
  probationThreshold: POLICY.probationThreshold,
  windowMs: POLICY.windowSeconds * 1000,
  bucketMs: POLICY.bucketSeconds * 1000,
});
const triggerSwitch = memoryTriggerSwitch();
let durable: RecordingDurableServer;
let server: FunctionsHttpServer;
let browser: Browser;
let tripId: string;
let link: string;
const cspViolations: string[] = [];

beforeAll(async () => {
  durable = await startRecordingDurableServer();
  const orchestration = durableOrchestrationControl(FN);
  const deadLetterCount = () => Promise.resolve(12);
  registerApproval({
    functionName: FN,
    clock,
    verifyToken: (token, at) => verifyApprovalToken(token, KEYS, at),
    store,
    deadLetterCount,
    orchestration,
  });
  registerOperator({
    functionName: FN,
    clock,
    policy: POLICY,
    store,
    triggerSwitch,
    maintenance: freshMaintenanceRecord(FN),
    deadLetterCount,
    orchestration,
  });
  server = await startFunctionsHttpServer({
    functionKey: FUNCTION_KEY,
    extraInputs: () => ({ durableClient: durable.clientData }),
  });
  browser = await startChromium();
  await mkdir(SCREENSHOT_DIR, { recursive: true });

  // A threshold trip as the trigger would record it: failures spread over the window, then OPEN.
  for (let i = 0; i < 30; i++) {
    now += 1000;
    const failures = Array.from({ length: 2 + (i % 5) }, (_, k) => ({
      eventKey: `p${i % 16}-s${1000 + i * 10 + k}`,
      kind: 'transient' as const,
      message: `HomeActivity table answered 503 (ServerBusy) <attempt ${k + 1}>`,
    }));
    const result = await store.record(failures, now);
    if (result.tripped && result.tripId !== undefined) tripId = result.tripId;
  }
  await store.updateTrip(tripId, {
    sample: [
      { eventKey: 'p3-s1042', kind: 'transient', message: 'HomeActivity table answered 503 (ServerBusy)' },
      { eventKey: 'p7-s2210', kind: 'transient', message: 'connect ETIMEDOUT 10.0.0.4:443' },
    ],
  });
  // The orchestration disabled the trigger, emailed the link and now waits.
  triggerSwitch.disabled.set(FN, true);
  durable.instances.set(breakerInstanceId(tripId), {
    name: 'BreakerOrchestrator',
    input: { tripId, functionName: FN },
    runtimeStatus: 'Running',
    customStatus: { phase: 'awaiting-approval', tripId },
  });
  // The emailed link, signed with the test key.
  const token = signApprovalToken({ functionName: FN, tripId, expiresAt: now + 24 * 3_600_000 }, KEYS, now);
  link = approvalLink(server.baseUrl, token);
}, 60_000);

afterAll(async () => {
  await browser.close();
  await server.close();
  await durable.close();
});

async function open(url: string): Promise<{ page: Page; status: number | undefined }> {
  const page = await browser.context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  const response = await page.goto(url);
  return { page, status: response?.status() };
}

describe('an operator approves a restart from the emailed link, in Chromium', () => {
  it('shows the confirmation page, takes a name, and raises Approval for the trip', async () => {
    expect(tripId).toBeDefined();
    const { page, status } = await open(link);
    expect(status).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Approve restart?');
    expect(await page.locator('main').textContent()).toContain(tripId);
    expect(durable.raised).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'approval-page.png'), fullPage: true });

    await page.fill('#approver', 'Dana Ops');
    await Promise.all([page.waitForURL(/\/api\/approve$/), page.click('#approve')]);
    expect(await page.locator('h1').textContent()).toBe('Restart approved');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'approval-done.png'), fullPage: true });
    expect(durable.raised).toEqual([
      { instanceId: breakerInstanceId(tripId), name: 'Approval', data: { tripId, approvedBy: 'Dana Ops' } },
    ]);
    // The form posted same-origin with the token in the body, not the URL.
    expect(server.served.at(-1)).toMatchObject({ method: 'POST', path: '/api/approve', status: 200 });
    await page.close();
  });

  it('opening the link again says "already approved" and raises nothing', async () => {
    const { page, status } = await open(link);
    expect(status).toBe(409);
    expect(await page.locator('h1').textContent()).toBe('Already approved');
    expect(await page.locator('main').textContent()).toContain('Approved by Dana Ops');
    expect(await page.locator('form').count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'approval-again.png'), fullPage: true });
    expect(durable.raised).toHaveLength(1);
    await page.close();
  });

  it('the dashboard shows the probation that follows, on a desktop and on a phone', async () => {
    // What the orchestration does on approval: reset the window, HALF_OPEN, re-enable, probation.
    now += 60_000;
    await store.resetWindow();
    await store.transition('OPEN', 'HALF_OPEN', tripId, now);
    await store.updateTrip(tripId, { resumedAt: now });
    triggerSwitch.disabled.set(FN, false);
    durable.instances.get(breakerInstanceId(tripId))!.customStatus = {
      phase: 'probation',
      tripId,
      approvedBy: 'Dana Ops',
    };
    for (let i = 0; i < 8; i++) {
      now += 1000;
      await store.record(
        Array.from({ length: i % 3 }, () => ({
          eventKey: 'p1-s1',
          kind: 'transient' as const,
          message: 'slow',
        })),
        now,
      );
    }

    const unauthorised = await open(`${server.baseUrl}/api/breaker/dashboard`);
    expect(unauthorised.status).toBe(401);
    await unauthorised.page.close();

    const { page, status } = await open(`${server.baseUrl}/api/breaker/dashboard?code=${FUNCTION_KEY}`);
    expect(status).toBe(200);
    expect(await page.locator('#state').textContent()).toBe('HALF_OPEN');
    expect(await page.locator('#phase').textContent()).toBe('probation');
    expect(await page.locator('#trips').textContent()).toContain('Dana Ops');
    expect(await page.locator('#dead-letters').textContent()).toBe('12');
    expect(await page.locator('svg rect').count()).toBeGreaterThan(30);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    // Readable on a phone: nothing wider than the screen.
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard-phone.png'), fullPage: true });
    await page.close();
  });

  it('no page broke its Content Security Policy', () => {
    expect(cspViolations).toEqual([]);
  });
});
