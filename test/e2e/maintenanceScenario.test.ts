import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { BreakwaterWorld, FUNCTION_KEY } from '../../sim/world/breakwaterWorld';
import { runScenario, type ScenarioPlan, TIMELINE } from '../../sim/world/scenario';
import { invariantViolations } from './invariants/invariants';

// Maintenance mode end to end, as the migration runbook uses it: stop consuming on purpose while events
// keep arriving, a real trip in the middle (it still pages and is approved), watchdog ticks that must
// leave the trigger alone, then leave maintenance: consumption resumes from the checkpoints, nothing lost.
let world: BreakwaterWorld;
beforeAll(async () => {
  world = await BreakwaterWorld.create({ storageConnectionString: inject('storageConnectionString') });
});
afterAll(() => world.close());

const ENTER_AT = 5;
const TRIP_AT = 20;
const LEAVE_AT = 150;

describe('maintenance mode in the simulated deployment', () => {
  it('holds the trigger off through a trip and the watchdog, and resumes from the checkpoint on leave', async () => {
    const answers: Record<string, { status: number; body: Record<string, unknown> }> = {};
    const disabledAt: number[] = [];
    const plan: ScenarioPlan = {
      run: 'maintenance',
      partitions: 4,
      events: 240,
      sendSeconds: 30,
      homes: 17,
      poisonEvery: 0,
      outages: [],
      approveAfter: 10,
      crashes: [],
      maxSeconds: 900,
      minSeconds: LEAVE_AT + 1,
      happenings: [
        {
          at: ENTER_AT,
          what: 'operator ENTERS maintenance',
          run: async () => {
            answers.enter = await world.maintenance({ action: 'enter', reason: 'migrating', by: 'Ana' });
            answers.again = await world.maintenance({ action: 'enter', reason: 'twice' });
          },
        },
        {
          at: TRIP_AT,
          what: 'a trip while in maintenance',
          run: async () => {
            const response = await fetch(`${world.http.baseUrl}/api/breaker/trip`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-functions-key': FUNCTION_KEY },
              body: JSON.stringify({ reason: 'downstream reported trouble' }),
            });
            answers.trip = {
              status: response.status,
              body: (await response.json()) as Record<string, unknown>,
            };
          },
        },
        {
          at: LEAVE_AT,
          what: 'operator LEAVES maintenance',
          run: async () => {
            answers.leave = await world.maintenance({ action: 'leave', by: 'Ben' });
          },
        },
      ],
    };
    const mailsBefore = world.smtp.received.length;
    const startedAt = world.clock.now();
    const report = await runScenario(world, plan, {
      observer: (tick) => {
        if (world.isDisabled()) disabledAt.push(tick.second);
      },
    });

    expect(answers.enter?.status).toBe(200);
    expect(answers.again?.status).toBe(409);
    expect(answers.trip?.status).toBe(202);
    expect(answers.leave).toMatchObject({ status: 200, body: { action: 'left', triggerEnabled: true } });
    // The trip paged and was approved through its link; the approval did not switch the trigger on.
    const subjects = world.smtp.received.slice(mailsBefore).map((m) => m.subject ?? '');
    expect(subjects).toContainEqual(expect.stringMatching(/stopped: approval needed/));
    expect(subjects).toContainEqual(expect.stringMatching(/approved but NOT restarted/));
    expect(report.approvals.map((a) => a.postStatus)).toEqual([200]);
    // Disabled from the enter to the leave, every second, through two watchdog ticks; enabled after.
    const held = Array.from({ length: LEAVE_AT - ENTER_AT }, (_, i) => ENTER_AT + i);
    expect(disabledAt.filter((s) => s >= ENTER_AT && s < LEAVE_AT)).toEqual(held);
    expect(disabledAt.filter((s) => s > LEAVE_AT)).toEqual([]);
    expect(world.watchdogFailures).toEqual([]);
    const enabled = report.timeline.filter((t) => t.what === TIMELINE.enabled).map((t) => t.second);
    expect(enabled.every((s) => s >= LEAVE_AT)).toBe(true);
    // Events kept arriving while held; all of them reached the downstream, none dead-lettered.
    expect(report.sent).toHaveLength(plan.events);
    expect(report.deadLetters).toEqual([]);
    // Nothing was consumed while in maintenance (once the restart the disable causes had landed): the
    // rest waited behind the checkpoints and was written after the leave.
    const second = (at: number) => Math.floor((at - startedAt) / 1000);
    const writes = world.writes.filter((w) => w.run === plan.run);
    expect(writes.filter((w) => second(w.at) >= ENTER_AT && second(w.at) < LEAVE_AT)).toEqual([]);
    // (Fewer writes than events: a newer reading of the same sensor in one batch supersedes an older one.)
    expect(writes.filter((w) => second(w.at) >= LEAVE_AT).length).toBeGreaterThan(0);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
  }, 180_000);
});
