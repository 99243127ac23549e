/**
 * A channel is a value of the one NoticeChannel interface: a third one, defined here only, goes out
 * through the same sendNotice and the same ledger as the email and the webhook.
 */
import { BlobServiceClient } from '@azure/storage-blob';
import { describe, expect, inject, it } from 'vitest';

import { silentLogger } from '../../src/kernel/logger';
import { blobNoticeLedger } from '../../src/notify/blobNoticeLedger';
import type { BreakerChannel } from '../../src/notify/breakerChannel';
import type { BreakerNotice } from '../../src/notify/breakerNotice';
import type { NoticeOutcome } from '../../src/notify/noticeChannel';
import { type NoticeIdentity, noticeMessageId } from '../../src/notify/noticeLedger';
import { makeBreakerActivities } from '../../src/orchestration/breakerActivities';
import { FN, newEpisode, SETTINGS } from './breakerFixture';

let counter = 0;
const freshContainer = () =>
  BlobServiceClient.fromConnectionString(inject('storageConnectionString')).getContainerClient(
    `pager-${counter++}-${Date.now().toString(36)}`,
  );

interface Page {
  readonly text: string;
}

/** A pager that records what it was given and answers as told. */
function pagerChannel(answer: () => NoticeOutcome = () => ({ ok: true })) {
  const pages: { page: Page; identity: NoticeIdentity }[] = [];
  const channel: BreakerChannel = {
    name: 'pager',
    timing: 'beside-wait',
    statusField: 'pagerError',
    render: (notice: BreakerNotice, facts): Page => ({
      text: `${notice.kind} ${notice.tripId} at ${facts.now}`,
    }),
    revive: (value: unknown) =>
      typeof value === 'object' && value !== null && typeof (value as Page).text === 'string'
        ? { text: (value as Page).text }
        : undefined,
    send(page: Page, identity: NoticeIdentity) {
      pages.push({ page, identity });
      return Promise.resolve(answer());
    },
  };
  return { channel, pages };
}

describe('a third notice channel from the same interface', () => {
  it('is sent through sendNotice once: a re-run, in a new process, finds it sent', async () => {
    const pager = pagerChannel();
    const container = freshContainer();
    const e = await newEpisode(() => ({ channels: [pager.channel], notices: blobNoticeLedger(container) }));
    const notice: BreakerNotice = {
      kind: 'closed',
      tripId: e.tripId,
      functionName: FN,
      at: new Date(e.host.now).toISOString(),
    };

    expect(await makeBreakerActivities(e.deps, SETTINGS).sendNotice('pager', notice, silentLogger)).toEqual({
      ok: true,
    });
    const rerun = makeBreakerActivities({ ...e.deps, notices: blobNoticeLedger(container) }, SETTINGS);
    expect(await rerun.sendNotice('pager', notice, silentLogger)).toEqual({ ok: true });

    expect(pages(pager)).toEqual([`closed ${e.tripId} at ${e.host.now}`]);
    expect(pager.pages[0]?.identity.messageId).toBe(noticeMessageId(`${e.tripId}/closed/pager`));
    expect(e.email.sent).toEqual([]);
  });

  it('sends again after a refusal (not recorded as sent), the message the first attempt rendered', async () => {
    let refuse = true;
    const pager = pagerChannel(() =>
      refuse ? { ok: false, code: 'PAGER_REFUSED', message: 'refused' } : { ok: true },
    );
    const e = await newEpisode(() => ({
      channels: [pager.channel],
      notices: blobNoticeLedger(freshContainer()),
    }));
    const acts = makeBreakerActivities(e.deps, SETTINGS);
    const notice: BreakerNotice = {
      kind: 'closed',
      tripId: e.tripId,
      functionName: FN,
      at: new Date(e.host.now).toISOString(),
    };

    expect(await acts.sendNotice('pager', notice, silentLogger)).toEqual({
      ok: false,
      code: 'PAGER_REFUSED',
      message: 'refused',
    });
    refuse = false;
    e.host.advance(60_000);
    expect(await acts.sendNotice('pager', notice, silentLogger)).toEqual({ ok: true });
    expect(await acts.sendNotice('pager', notice, silentLogger)).toEqual({ ok: true });
    expect(pager.pages.map((p) => p.identity)).toEqual([pager.pages[0]?.identity, pager.pages[0]?.identity]);
    expect(new Set(pages(pager)).size).toBe(1);
  });

  it('each reminder is its own notice: the second is sent after the first, and each only once', async () => {
    const pager = pagerChannel();
    const e = await newEpisode(() => ({
      channels: [pager.channel],
      notices: blobNoticeLedger(freshContainer()),
    }));
    const acts = makeBreakerActivities(e.deps, SETTINGS);
    const reminder = (n: number): BreakerNotice => ({
      kind: 'reminder',
      reminder: n,
      maxReminders: 3,
      disable: { kind: 'switched', disabled: true },
      tripId: e.tripId,
      functionName: FN,
      at: new Date(e.host.now).toISOString(),
    });
    for (const n of [1, 1, 2, 2]) {
      e.host.advance(60_000);
      expect(await acts.sendNotice('pager', reminder(n), silentLogger)).toEqual({ ok: true });
    }
    expect(pager.pages.map((p) => p.identity.messageId)).toEqual([
      noticeMessageId(`${e.tripId}/reminder-1/pager`),
      noticeMessageId(`${e.tripId}/reminder-2/pager`),
    ]);
  });

  it('a ledger it cannot read or write (storage refusing) never holds the notice back', async () => {
    const pager = pagerChannel();
    // The app's own account name with a key that is not its key: every ledger request is refused (403).
    const wrongKey = inject('storageConnectionString').replace(
      /AccountKey=[^;]+/,
      `AccountKey=${Buffer.from('not-the-account-key').toString('base64')}`,
    );
    const refusing = BlobServiceClient.fromConnectionString(wrongKey, {
      retryOptions: { maxTries: 1 },
    }).getContainerClient('pager-refused');
    const e = await newEpisode(() => ({ channels: [pager.channel], notices: blobNoticeLedger(refusing) }));
    const notice: BreakerNotice = {
      kind: 'closed',
      tripId: e.tripId,
      functionName: FN,
      at: new Date(e.host.now).toISOString(),
    };
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (m: unknown) => warnings.push(String(m)) };
    expect(await makeBreakerActivities(e.deps, SETTINGS).sendNotice('pager', notice, logger)).toEqual({
      ok: true,
    });
    expect(pages(pager)).toEqual([`closed ${e.tripId} at ${e.host.now}`]);
    expect(warnings.join('\n')).toContain(
      `notice ledger unreadable for ${e.tripId}/closed/pager, sending anyway`,
    );
  });

  it('a channel not in the list is refused by name, as the webhook without settings', async () => {
    const e = await newEpisode();
    const notice: BreakerNotice = {
      kind: 'closed',
      tripId: e.tripId,
      functionName: FN,
      at: new Date(e.host.now).toISOString(),
    };
    const acts = makeBreakerActivities(e.deps, SETTINGS);
    expect(await acts.sendNotice('pager', notice, silentLogger)).toEqual({
      ok: false,
      code: 'PAGER_NOT_CONFIGURED',
      message: 'no pager',
    });
    expect(await acts.sendNotice('webhook', notice, silentLogger)).toEqual({
      ok: false,
      code: 'WEBHOOK_NOT_CONFIGURED',
      message: 'no webhook',
    });
  });
});

const pages = (pager: ReturnType<typeof pagerChannel>) => pager.pages.map((p) => p.page.text);
