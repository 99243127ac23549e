/**
 * No secret in what leaves for Application Insights: a world with the webhook channel goes through a trip,
 * the emailed approval, the operator API and maintenance with the function key, while the exporters
 * production registers (and the worker's log hook, every level) write to memory. Every record's body and
 * attributes and every span's attributes are searched for the approval tokens, the function key, the
 * webhook's signing key and URL path, and the storage account key.
 */
import * as azureFunctions from '@azure/functions';
import { InMemoryLogRecordExporter } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { BreakwaterWorld, FUNCTION_KEY } from '../../sim/world/breakwaterWorld';
import { maintenanceRequest } from '../../sim/world/operatorActions';
import { type StartedTelemetry, startTelemetry } from '../../src/composition/telemetrySetup';
import { exportWorkerLogs } from '../../src/composition/workerLogExport';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

const SIGNING_KEY = 'telemetry-drill-webhook-key-0123456789abcdef';
const records = new InMemoryLogRecordExporter();
const spans = new InMemorySpanExporter();
let started: StartedTelemetry;
let hooks: azureFunctions.Disposable;
let world: BreakwaterWorld;
let receiver: WebhookReceiver;
const tokens: string[] = [];

beforeAll(async () => {
  started = startTelemetry('secrets-drill', { spans, logs: records, simple: true });
  hooks = exportWorkerLogs(azureFunctions);
  receiver = await startWebhookReceiver({
    keys: [SIGNING_KEY],
    nowSeconds: () => Math.floor(world.clock.now() / 1000),
  });
  world = await BreakwaterWorld.create({
    storageConnectionString: inject('storageConnectionString'),
    settings: { WEBHOOK_URL: receiver.url, WEBHOOK_FORMAT: 'json', WEBHOOK_SIGNING_KEY: SIGNING_KEY },
  });
  await world.runtime.breakerStore.openManually('secrets drill', world.clock.now());
  world.clock.advance(5 * 60_000);
  await world.runWatchdog();
  await world.durable.catchUp();
  for (const link of world.approvalLinks()) tokens.push(new URL(link).searchParams.get('token') ?? '');
  const operator = (path: string) =>
    fetch(`${world.http.baseUrl}${path}?code=${FUNCTION_KEY}`, {
      headers: { 'x-functions-key': FUNCTION_KEY },
    });
  await (await operator('/api/breaker/status')).text();
  const link = world.approvalLinks()[0] ?? '';
  // A replayed and a tampered token as well as the real one.
  await (await fetch(`${link}x`)).text();
  expect((await world.approve(link, 'Drill Approver')).postStatus).toBe(200);
  await (await fetch(link)).text();
  await world.durable.catchUp();
  await maintenanceRequest(world.http.baseUrl, FUNCTION_KEY, { action: 'enter', reason: 'drill' });
  await maintenanceRequest(world.http.baseUrl, FUNCTION_KEY, { action: 'leave' });
  await world.runWatchdog();
  await world.durable.catchUp();
  await started.flush();
}, 120_000);

afterAll(async () => {
  hooks.dispose();
  await world.close();
  await receiver.close();
  await started.shutdown();
});

/** Every text that would reach Application Insights, one string per record or span. */
function exportedTexts(): string[] {
  const attributeText = (attributes: Record<string, unknown>) =>
    Object.entries(attributes)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
  return [
    ...records
      .getFinishedLogRecords()
      .map(
        (r) =>
          `${typeof r.body === 'string' ? r.body : JSON.stringify(r.body)} ${attributeText(r.attributes)}`,
      ),
    ...spans.getFinishedSpans().map((s) => `${s.name} ${attributeText(s.attributes)}`),
  ];
}

describe('secrets in telemetry', () => {
  it('the drill exported records and spans from the trip, the approval, the webhook and the operator API', () => {
    const texts = exportedTexts();
    expect(tokens.length).toBeGreaterThan(0);
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(texts.some((t) => t.startsWith('webhook POST'))).toBe(true);
    expect(texts.some((t) => /approved/i.test(t))).toBe(true);
    expect(texts.length).toBeGreaterThan(10);
  });

  it('carry no approval token, function key, webhook key or path, nor the storage account key', () => {
    const accountKey = /AccountKey=([^;]+)/.exec(world.env.AzureWebJobsStorage ?? '')?.[1] ?? '';
    expect(accountKey).not.toBe('');
    const secrets = {
      ...Object.fromEntries(tokens.map((t, i) => [`approval token ${i}`, t])),
      'function key': FUNCTION_KEY,
      'webhook signing key': SIGNING_KEY,
      'webhook path': new URL(receiver.url).pathname,
      'storage account key': accountKey,
    };
    const found = Object.entries(secrets).flatMap(([what, secret]) =>
      exportedTexts()
        .filter((t) => t.includes(secret))
        .map((t) => `${what} in: ${t.slice(0, 200)}`),
    );
    expect(found).toEqual([]);
  });
});
