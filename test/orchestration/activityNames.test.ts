import { beforeAll, describe, expect, it } from 'vitest';

import { invokeRpc } from '../../sim/host/fakeFunctionsCore';
import type { BreakerNotice } from '../../src/notify/breakerNotice';
import { NOTICE_CHANNELS } from '../../src/notify/channelList';
import { sendActivityName } from '../../src/orchestration/activityNames';
import { FN, newEpisode, registerBreaker } from './breakerFixture';

beforeAll(registerBreaker);

const invoke = (name: string, input: unknown) =>
  invokeRpc(name, { trigger: { json: JSON.stringify(input) } });

describe('one send activity per notice channel', () => {
  it('derives the names histories hold from the channel names: Breaker_SendEmail, Breaker_SendWebhook', () => {
    expect(NOTICE_CHANNELS.map(sendActivityName)).toEqual(['Breaker_SendEmail', 'Breaker_SendWebhook']);
  });

  it('registers both, the webhook one also without webhook settings (it answers with a refusal)', async () => {
    const e = await newEpisode();
    const notice: BreakerNotice = {
      kind: 'closed',
      tripId: e.tripId,
      functionName: FN,
      at: '2026-01-01T00:00:02Z',
    };
    expect((await invoke('Breaker_SendEmail', notice)).result).toEqual({ ok: true });
    expect(e.subjects()).toHaveLength(1);
    expect((await invoke('Breaker_SendWebhook', notice)).result).toEqual({
      ok: false,
      code: 'WEBHOOK_NOT_CONFIGURED',
      message: 'no webhook',
    });
  });
});
