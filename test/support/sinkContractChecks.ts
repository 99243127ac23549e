import type { SensorReading } from '../../src/hub/sensorReading';
import {
  BOUND_MS,
  check,
  deliver,
  describeError,
  event,
  failureOf,
  held,
  home,
  isOutageLike,
  reading,
  type SinkContractCheck,
} from './sinkContractKit';

/**
 * The promises every ActivitySink keeps, in the order docs/your-own-downstream.md explains them.
 * Each check uses fresh homes, so it runs against a shared (even persistent) downstream.
 */
export const sinkContractChecks: readonly SinkContractCheck[] = [
  check(
    {
      promise: 're-delivery of the same event changes nothing',
      protects: 'G2 (a held batch is re-run and its successes are written again)',
    },
    async (s, broken, seq) => {
      const sink = s.newSink();
      const r = reading(home('redeliver'), 'door', 1, 'open');
      const e = event(r, seq(5));
      if ((await deliver(sink, r, e)) !== 'applied')
        throw broken('the first delivery did not report "applied"');
      const before = await s.readBack(r.homeId, r.sensorId);
      const second = await deliver(s.newSink(), r, e);
      const after = await s.readBack(r.homeId, r.sensorId);
      if (held(after) !== held(before))
        throw broken(`the second delivery rewrote the record (${held(before)} -> ${held(after)})`);
      if (second !== 'stale') throw broken(`the second delivery reported "${second}", expected "stale"`);
    },
  ),
  check(
    {
      promise: 'an older event never overwrites a newer one',
      protects: 'G2 convergence (after a partition move an old owner re-runs an older batch)',
    },
    async (s, broken, seq) => {
      const sink = s.newSink();
      const id = home('older');
      const newer = reading(id, 'door', 10, 'closed');
      const older = reading(id, 'door', 5, 'open');
      await deliver(sink, newer, event(newer, seq(9)));
      const late = await deliver(sink, older, event(older, seq(3)));
      const now = await s.readBack(id, 'door');
      if (now?.sequenceNumber !== seq(9))
        throw broken(`after the older event it holds ${held(now)}, expected s${seq(9)}`);
      if (late !== 'stale') throw broken(`the older event reported "${late}", expected "stale"`);
      // Same timestamp: the sequence number decides.
      const a = reading(id, 'window', 20, 'open');
      const b = reading(id, 'window', 20, 'closed');
      await deliver(sink, b, event(b, seq(12)));
      await deliver(sink, a, event(a, seq(11)));
      const tie = await s.readBack(id, 'window');
      if (tie?.sequenceNumber !== seq(12))
        throw broken(`with equal times it holds ${held(tie)}, expected s${seq(12)}`);
    },
  ),
  check(
    {
      promise: 'two instances racing on one key converge on the newest reading',
      protects: 'G2 convergence (invocations of one partition overlap while it moves)',
    },
    async (s, broken, seq) => {
      const [a, b] = [s.newSink(), s.newSink()];
      const id = home('race');
      const readings = Array.from({ length: 8 }, (_, i) => reading(id, 'door', i, i % 2 ? 'open' : 'closed'));
      // Each instance writes every reading, in opposite orders, at the same time.
      const writes = readings.flatMap((r, i) => [
        deliver(a, r, event(r, seq(i))),
        deliver(b, readings[7 - i]!, event(readings[7 - i]!, seq(7 - i))),
      ]);
      const results = await Promise.allSettled(writes);
      const failed = results.filter((r) => r.status === 'rejected');
      if (failed.length > 0) throw broken(`${failed.length} of 16 racing writes failed even after retries`);
      const now = await s.readBack(id, 'door');
      if (now?.sequenceNumber !== seq(7))
        throw broken(`after the race it holds ${held(now)}, expected s${seq(7)}`);
    },
  ),
  check(
    {
      promise: 'a re-run after a partial batch converges per key',
      protects: 'G1 and G2 (a batch held half-way is re-run from its first event, on any instance)',
    },
    async (s, broken, seq) => {
      const id = home('rerun');
      const batch = [0, 1, 2, 3, 4, 5].map((i) => {
        const r = reading(id, i % 2 ? 'window' : 'door', i, i % 3 ? 'open' : 'closed');
        return { r, e: event(r, seq(100 + i)) };
      });
      const first = s.newSink();
      for (const { r, e } of batch.slice(0, 3)) await deliver(first, r, e); // then the instance dies
      const rerun = s.newSink();
      const results = [];
      for (const { r, e } of batch) results.push(await deliver(rerun, r, e));
      const expected = ['stale', 'stale', 'stale', 'applied', 'applied', 'applied'];
      if (results.join() !== expected.join())
        throw broken(`the re-run reported [${results.join(', ')}], expected [${expected.join(', ')}]`);
      for (const { r, e } of batch.slice(0, 3)) await deliver(first, r, e); // the old owner, late
      const door = await s.readBack(id, 'door');
      const window = await s.readBack(id, 'window');
      if (door?.sequenceNumber !== seq(104) || window?.sequenceNumber !== seq(105))
        throw broken(
          `it holds door ${held(door)} and window ${held(window)}, expected s${seq(104)} and s${seq(105)}`,
        );
    },
  ),
  check(
    {
      promise: 'an unreachable downstream fails outage-like, within the signal',
      protects: 'G2 and G4 (an outage must hold the batch and trip the breaker, never dead-letter it)',
      needs: 'newUnreachableSink',
    },
    async (s, broken, seq) => {
      const sink = s.newUnreachableSink!();
      const r = reading(home('outage'), 'door', 1, 'open');
      const error = await failureOf(broken, 'a write to the unreachable downstream', () =>
        sink.write(r, event(r, seq(1)), AbortSignal.timeout(BOUND_MS)),
      );
      if (!isOutageLike(error))
        throw broken(
          `its error is not outage-like: ${describeError(error)} (give it a statusCode or network code)`,
        );
      const aborted = await failureOf(broken, 'a write with an aborted signal', () =>
        s.newSink().write(r, event(r, seq(2)), AbortSignal.abort()),
      );
      if (!isOutageLike(aborted))
        throw broken(`an aborted write is not outage-like: ${describeError(aborted)}`);
    },
  ),
  check(
    {
      promise: 'a refused event fails as about this event, and only that event',
      protects: 'G1 and G2 (the event is dead-lettered after bounded attempts; the partition moves on)',
      needs: 'rejectHome',
    },
    async (s, broken, seq) => {
      const bad = reading(home('refused'), 'door', 1, 'open');
      await s.rejectHome!(bad.homeId);
      const sink = s.newSink();
      const error = await failureOf(broken, 'a write the downstream refuses', () =>
        sink.write(bad, event(bad, seq(1)), AbortSignal.timeout(BOUND_MS)),
      );
      if (isOutageLike(error))
        throw broken(`its error is outage-like, so the partition would stall: ${describeError(error)}`);
      const good = reading(home('accepted'), 'door', 1, 'open');
      if ((await deliver(sink, good, event(good, seq(2)))) !== 'applied')
        throw broken('the next, valid event was not applied');
    },
  ),
  check(
    {
      promise: 'the probe answers while the downstream is up and fails outage-like while it is not',
      protects: 'G5 and G6 (status and restart decisions rest on whether the downstream is back)',
    },
    async (s, broken) => {
      try {
        await s.newSink().probe(AbortSignal.timeout(BOUND_MS));
      } catch (error) {
        throw broken(`the probe of a healthy downstream threw: ${describeError(error)}`);
      }
      if (!s.newUnreachableSink) return;
      const unreachable = s.newUnreachableSink();
      const error = await failureOf(broken, 'the probe of an unreachable downstream', () =>
        unreachable.probe(AbortSignal.timeout(BOUND_MS)),
      );
      if (!isOutageLike(error)) throw broken(`its error is not outage-like: ${describeError(error)}`);
    },
  ),
  check(
    {
      promise: 'the declared ordering key depends only on what the sink orders by',
      protects: 'G2 once keys are processed concurrently (readings of one key must stay in order)',
      needs: 'orderingKey',
    },
    (s, broken) => {
      const sink = s.newSink();
      const key = (r: SensorReading) => sink.orderingKey!(r);
      const id = home('key');
      const [early, late] = [reading(id, 'door', 1, 'open'), reading(id, 'door', 9, 'closed')];
      if (key(early) !== key(late))
        throw broken(`two readings of one sensor got different keys ("${key(early)}", "${key(late)}")`);
      if (key(early) === key(reading(home('key'), 'door', 1, 'open')))
        throw broken(`two homes share the key "${key(early)}"`);
      return Promise.resolve();
    },
  ),
];
