/** What an operator of the simulated deployment does: reads the emails, follows the link, reads letters. */
import { QueueServiceClient } from '@azure/storage-queue';

import type { DeadLetterMessage } from '../../src/deadLetters/deadLetterMessage';
import type { SmtpSink } from '../azure/smtpSink';

/** Approval links found in the emails received so far, oldest first. */
export function approvalLinksIn(smtp: SmtpSink): string[] {
  return smtp.received.flatMap(
    (m) => /(https?:\/\/\S+\/api\/approve\?token=[A-Za-z0-9._~-]+)/.exec(m.text ?? '')?.[1] ?? [],
  );
}

/** Opens the emailed link (GET, which changes nothing), then submits the form like a person would. */
export async function approveLikeAPerson(
  link: string,
  approver: string,
): Promise<{ getStatus: number; postStatus: number; page: string }> {
  const get = await fetch(link);
  await get.text();
  const token = new URL(link).searchParams.get('token') ?? '';
  const post = await fetch(new URL('approve', link), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // Scenario operators approve at a planned time whatever the downstream probe says ("approve
    // anyway"); the gate itself is checked by the approval page and browser tests.
    body: new URLSearchParams({ token, approver, anyway: 'yes' }).toString(),
  });
  return { getStatus: get.status, postStatus: post.status, page: await post.text() };
}

/** Dead letters in the app's dead-letter queue (read and removed). */
export async function drainDeadLetterQueue(env: Record<string, string>): Promise<DeadLetterMessage[]> {
  const queue = QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage ?? '').getQueueClient(
    env.DEAD_LETTER_QUEUE ?? '',
  );
  await queue.createIfNotExists();
  const out: DeadLetterMessage[] = [];
  for (;;) {
    const { receivedMessageItems } = await queue.receiveMessages({ numberOfMessages: 32 });
    if (receivedMessageItems.length === 0) return out;
    for (const m of receivedMessageItems) {
      out.push(JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as DeadLetterMessage);
      await queue.deleteMessage(m.messageId, m.popReceipt);
    }
  }
}

/** `POST /api/breaker/maintenance` as an operator's script would send it, with the function key. */
export async function maintenanceRequest(
  baseUrl: string,
  functionKey: string,
  body:
    | { readonly action: 'enter'; readonly reason: string; readonly by?: string }
    | { readonly action: 'leave'; readonly by?: string },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/api/breaker/maintenance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-functions-key': functionKey },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
