import { afterAll, beforeAll, beforeEach } from 'vitest';

import { type HttpCall, invokeHttp } from '../../sim/host/httpInvoke';
import { APPROVAL_FUNCTION } from '../../src/approval/registerApproval';
import { type ApprovalFixture, approvalFixture } from './approvalFixture';

/** The approval fixture of the test file that called `setUpApprovalFixture`, open while its tests run. */
export let f: ApprovalFixture;

/** Opens the fixture before the calling file's tests, closes it after them, and resets it before each. */
export function setUpApprovalFixture(): void {
  beforeAll(async () => {
    f = await approvalFixture();
  });
  afterAll(() => f.close());
  beforeEach(async () => {
    // Every test starts from a closed circuit with no raised events.
    f.store.failWith(undefined);
    const state = await f.store.getState();
    f.store.force({ state: 'CLOSED', tripId: state.tripId, since: f.clock.now() });
    f.durable.raised.length = 0;
  });
}

export const BASE = 'https://breakwater.example/api/approve';
export const call = (c: HttpCall) =>
  invokeHttp(APPROVAL_FUNCTION, c, { durableClient: f.durable.clientData });
export const get = (token: string) =>
  call({ method: 'GET', url: `${BASE}?token=${encodeURIComponent(token)}` });
export const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  call({
    method: 'POST',
    url: BASE,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
