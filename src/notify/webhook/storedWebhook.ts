import { WEBHOOK_NOTICE_KINDS, type WebhookNotice } from './webhookNotice';

const isString = (v: unknown): v is string => typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A webhook notice as the ledger stored it, checked field by field; undefined when it is not one. */
export function reviveStoredWebhook(value: unknown): WebhookNotice | undefined {
  if (!isRecord(value)) return undefined;
  const { deliveryId, kind, severity, tripId, functionName, at, title, summary, facts, dashboardUrl } = value;
  const strings = [deliveryId, tripId, functionName, at, title, summary, dashboardUrl];
  if (!strings.every(isString)) return undefined;
  if (!WEBHOOK_NOTICE_KINDS.some((k) => k === kind)) return undefined;
  if (severity !== 'critical' && severity !== 'info') return undefined;
  const pairs = Array.isArray(facts) ? facts : undefined;
  if (pairs?.every((f) => Array.isArray(f) && f.length === 2 && f.every(isString)) !== true) return undefined;
  return value as unknown as WebhookNotice;
}
