import { accountRun, readCheckpointPositions } from './accounting';
import { mintApprovalLink } from './mintApprovalLink';
import { phaseRange } from './plan';
import { countRun } from './report';
import type { RunContext } from './runContext';
import { throwIfAborted } from './waitFor';

/** Not a timeout but a step that answered wrong (an approval refused, a breaker not CLOSED at the start). */
export class VerifyStepError extends Error {
  readonly code = 'VERIFY_STEP';
  override readonly name = 'VerifyStepError';
}

/** Calls the run makes before it gives up on an app that does not answer its first status read. */
const FIRST_CONTACT_TRIES = 3;

/** The steps of a run, in order; each wait is bounded and names what it saw last when it gives up. */
export async function runSteps(c: RunContext): Promise<void> {
  const { target, client, plan } = c;
  const missingOf = async (upTo: number) =>
    countRun(upTo, await accountRun(target.stores, plan, target.functionName, c.wallSince), 0).lost;

  const first = await client.firstStatus(FIRST_CONTACT_TRIES, (line) => {
    c.print(`   .. ${line}`);
  });
  const disabledAtStart = await target.triggerDisabled();
  if (first.state !== 'CLOSED' || disabledAtStart)
    throw new VerifyStepError(
      `the app is not in a state to verify (breaker ${first.state ?? 'unknown'}, trigger ${disabledAtStart ? 'disabled' : 'enabled'}); nothing was changed`,
    );
  c.checkpoints.start = await readCheckpointPositions(target.stores);
  // Read before anything changes: without access to the key the run would trip the breaker and then
  // be unable to approve. Kept in this function's memory only.
  const signingKey = await target.signingKey();
  c.print(`OK breaker CLOSED, trigger enabled, approval signing key readable (${c.elapsed()})`);
  // A stop that came while the run was reading (a closed pipe, SIGHUP) must keep it from changing anything.
  throwIfAborted(c.signal);
  c.changes.faultSwitchEnabled = true;
  c.print(await target.enableFaultSwitch());
  await c.wait('fault switch answers', async () =>
    (await client.faultSwitchAnswers()) ? { done: true } : { seen: 'GET /api/breaker/fault is not 200 yet' },
  );

  await c.publish('before');
  const beforeEnd = phaseRange(plan, 'before')[1];
  await c.wait('readings before the fault processed', async () => {
    const missing = await missingOf(beforeEnd);
    return missing === 0
      ? { done: true }
      : { seen: `${missing} of ${beforeEnd} not in the sink or dead letters` };
  });
  c.checkpoints.faultOn = await readCheckpointPositions(target.stores);

  throwIfAborted(c.signal);
  c.changes.faultSet = true;
  await client.setFault(true, c.settings.faultMinutes, c.by);
  c.mark('faultOn', `fault switch ON: sample sink down for at most ${c.settings.faultMinutes} min`);
  await c.publish('outage');
  const tripId = await c.wait<string>('breaker OPEN', async () => {
    const st = await client.status();
    const id = st.tripId;
    return st.state === 'OPEN' && id !== null ? { done: id } : { seen: `breaker ${st.state ?? '?'}` };
  });
  c.mark('tripped', `breaker OPEN, trip ${tripId}`);
  await c.wait('trigger disabled (ARM)', async () =>
    (await target.triggerDisabled())
      ? { done: true }
      : { seen: `no form of AzureWebJobs.${target.functionName}.Disabled is set` },
  );
  c.mark('disabled', 'trigger disabled in ARM');
  const notice = await c.wait<string>('notification', async () => {
    const seen = await target.notificationFor(tripId);
    return seen === undefined ? { seen: 'no notice for this trip yet' } : { done: seen };
  });
  c.mark('notified', `notification: ${notice}`);

  await c.publish('open');
  await client.setFault(false, 0, c.by);
  c.print(`OK fault switch OFF: sample sink back (${c.elapsed()})`);
  await c.wait('downstream probe healthy', async () => {
    const st = await client.status();
    return st.downstream?.healthy === true ? { done: true } : { seen: st.downstream?.line ?? 'no probe yet' };
  });
  // The operator's path: the public page, GET then the form's POST, with a link signed like the email's.
  const link = mintApprovalLink(
    target.app.baseUrl,
    signingKey,
    { functionName: target.functionName, tripId },
    target.now(),
  );
  const approval = await client.approve(link, c.settings.approver);
  if (approval.getStatus !== 200 || approval.postStatus !== 200)
    throw new VerifyStepError(
      `the approval page refused: GET ${approval.getStatus}, POST ${approval.postStatus}: ${textOf(approval.page)}`,
    );
  c.mark('approved', `approved through the approval page as "${c.settings.approver}"`);
  await c.wait('trigger enabled (ARM)', async () =>
    (await target.triggerDisabled()) ? { seen: 'still disabled' } : { done: true },
  );
  c.mark('resumed', 'trigger enabled: processing resumes from the checkpoint');
  await c.wait('backlog drained, every reading accounted for', async () => {
    const st = await client.status();
    const missing = await missingOf(plan.events);
    const held = st.held?.known === true ? st.held.total : undefined;
    return missing === 0 && held === 0
      ? { done: true }
      : { seen: `${missing} not found, held ${held ?? 'unknown'}` };
  });
  c.mark('drained', 'backlog drained');
  await c.wait('breaker CLOSED', async () => {
    const st = await client.status();
    return st.state === 'CLOSED'
      ? { done: true }
      : { seen: `breaker ${st.state ?? '?'} (${st.phase ?? 'no phase'})` };
  });
  c.mark('closed', 'breaker CLOSED');
}

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
