/**
 * The whole approval path with every part real except the Functions host: a manual trip through the
 * operator API starts the real breaker orchestration (on the test durable host), which emails the link
 * over SMTP; Chromium opens the link from that email, approves, and the orchestration moves on to
 * probation, which the dashboard then shows. Breaker store: Table on Azurite.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type SmtpSink, startSmtpSink } from '../../sim/azure/smtpSink';
import { type DurableClientServer, startDurableClientServer } from '../../sim/durable/durableClientServer';
import { type FunctionsHttpServer, startFunctionsHttpServer } from '../../sim/host/functionsHttpServer';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { applyEnv, testAppEnv } from '../support/appEnv';
import { type Browser, SCREENSHOT_DIR, startChromium } from '../support/chromium';

const FUNCTION_KEY = 'e2e-function-key';
let durable: DurableClientServer;
let smtp: SmtpSink;
let server: FunctionsHttpServer;
let browser: Browser;

beforeAll(async () => {
  durable = await startDurableClientServer();
  smtp = await startSmtpSink();
  // The server finds registered functions per request, so it can start before the modules load and
  // its address can become the public base URL of the emailed links.
  server = await startFunctionsHttpServer({
    functionKey: FUNCTION_KEY,
    extraInputs: () => ({ durableClient: durable.clientData }),
  });
  applyEnv(
    testAppEnv('e2e', {
      BREAKER_STORE: 'table',
      TRIGGER_CONTROL: 'local',
      EMAIL_PROVIDER: 'smtp',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      APPROVERS: 'oncall@example.test',
      PUBLIC_BASE_URL: server.baseUrl,
      APPROVAL_MAX_REMINDERS: '0',
    }),
  );
  await import('../../src/functions/breakerOrchestration');
  await import('../../src/functions/approval');
  await import('../../src/functions/operatorApi');
  browser = await startChromium();
  await mkdir(SCREENSHOT_DIR, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser.close();
  await server.close();
  await smtp.close();
  await durable.close();
});

const api = (route: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}/api/${route}`, {
    ...init,
    headers: { 'x-functions-key': FUNCTION_KEY, 'content-type': 'application/json' },
  });

describe('the emailed approval link, end to end', () => {
  let tripId: string;
  let link: string;

  it('a manual trip starts the orchestration, which emails the approval link', async () => {
    const res = await api('breaker/trip', {
      method: 'POST',
      body: JSON.stringify({ reason: 'browser drill' }),
    });
    expect(res.status).toBe(202);
    ({ tripId } = (await res.json()) as { tripId: string });
    const host = durable.host(breakerInstanceId(tripId));
    expect(host.customStatus).toMatchObject({ phase: 'awaiting-approval', tripId });
    const mail = smtp.received.find((m) => m.text?.includes(tripId));
    expect(mail).toBeDefined();
    const found = /https?:\/\/\S+\/api\/approve\?token=[A-Za-z0-9._~%-]+/.exec(mail?.text ?? '');
    expect(found).not.toBeNull();
    link = found![0];
    expect(link.startsWith(server.baseUrl)).toBe(true);
  });

  it('Chromium opens the link, approves, and the orchestration receives Approval for that trip', async () => {
    const page = await browser.context.newPage();
    const first = await page.goto(link);
    expect(first?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Approve restart?');
    // Opening the page changed nothing.
    expect(durable.host(breakerInstanceId(tripId)).customStatus).toMatchObject({
      phase: 'awaiting-approval',
    });

    await page.fill('#approver', 'Robin On-Call');
    await Promise.all([page.waitForURL(/\/api\/approve$/), page.click('#approve')]);
    expect(await page.locator('h1').textContent()).toBe('Restart approved');
    expect(durable.host(breakerInstanceId(tripId)).customStatus).toMatchObject({
      phase: 'probation',
      tripId,
      approvedBy: 'Robin On-Call',
    });

    const again = await page.goto(link);
    expect(again?.status()).toBe(409);
    expect(await page.locator('h1').textContent()).toBe('Already approved');
    await page.close();
  });

  it('status and dashboard show the probation', async () => {
    const status = (await (await api('breaker/status')).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ state: 'HALF_OPEN', tripId, phase: 'probation', activeThreshold: 10 });
    const page = await browser.context.newPage();
    await page.goto(`${server.baseUrl}/api/breaker/dashboard?code=${FUNCTION_KEY}`);
    expect(await page.locator('#state').textContent()).toBe('HALF_OPEN');
    expect(await page.locator('#trips').textContent()).toContain('Robin On-Call');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard-e2e.png'), fullPage: true });
    await page.close();
  });
});
