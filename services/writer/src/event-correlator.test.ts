import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anEvent } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import type { MutationEvent } from '@kcm-bus/runtime/mutation/index.ts';
import { FakeClock } from '@kcm-bus/runtime/workqueue/index.ts';
import { EventCorrelator, type EventWrite } from './event-correlator.ts';

const T0 = '2026-11-22T14:00:00.000000001Z';
const T0_NANOS = 1_795_356_000_000_000_001n;
const MINUTE = 60_000;
const withMessage = (message: string): MutationEvent => ({ ...anEvent, message });
const typeOf = (write: EventWrite): string => write.type;

/** given a correlator on a fake clock, the tests record events at createdAt times and advance the clock. */
function given(): { readonly clock: FakeClock; readonly correlator: EventCorrelator } {
  const clock = new FakeClock();
  return { clock, correlator: new EventCorrelator(clock) };
}

describe('EventCorrelator: new and identical events (eventLogger)', () => {
  it('given a first event, then Create an Event named <object>.<hex unix nanos> with count 1 at the recorded time', () => {
    const { correlator } = given();
    const write = correlator.correlate(anEvent, T0);
    assert.equal(write.type, 'Create');
    const event = write.type === 'Create' ? write.event : assert.fail();
    assert.equal(event.name, `web.${T0_NANOS.toString(16)}`);
    assert.deepEqual(
      [event.namespace, event.count, event.firstTimestamp, event.lastTimestamp],
      ['default', 1, '2026-11-22T14:00:00Z', '2026-11-22T14:00:00Z'],
    );
  });

  it('given the same mutation replayed to a restarted writer, then the same name (the replay meets AlreadyExists)', () => {
    const first = given().correlator.correlate(anEvent, T0);
    const again = given().correlator.correlate(anEvent, T0);
    assert.deepEqual(again, first);
  });

  it('given an identical event later, then Patch the first Event: count 2, the new lastTimestamp, the message', () => {
    const { clock, correlator } = given();
    const first = correlator.correlate(anEvent, T0);
    correlator.updateState(first.type === 'Create' ? { ...first.event, resourceVersion: '100' } : assert.fail());
    clock.advance(MINUTE);
    const second = correlator.correlate(anEvent, '2026-11-22T14:01:00Z');
    assert.equal(second.type, 'Patch');
    const { event, patch } = second.type === 'Patch' ? second : assert.fail();
    assert.deepEqual(patch, { count: 2, lastTimestamp: '2026-11-22T14:01:00Z', message: anEvent.message });
    assert.deepEqual(
      [event.name, event.count, event.firstTimestamp, event.resourceVersion],
      [`web.${T0_NANOS.toString(16)}`, 2, '2026-11-22T14:00:00Z', '100'],
    );
  });

  it('given an event about a cluster-scoped node, then it lives in the default namespace', () => {
    const node: MutationEvent = {
      ...anEvent,
      involvedObject: { ...anEvent.involvedObject, kind: 'Node', namespace: null, name: 'n1' },
    };
    const write = given().correlator.correlate(node, T0);
    assert.equal(write.type === 'Create' && write.event.namespace, 'default');
  });
});

describe('EventCorrelator: similar events (EventAggregator)', () => {
  it('given 10 messages of one reason within 10 minutes, then the 10th is combined and later ones count it up', () => {
    const { clock, correlator } = given();
    const writes = Array.from(
      { length: 9 },
      (_, i) => (clock.advance(MINUTE / 2), correlator.correlate(withMessage(`Created pod: p${i}`), T0)),
    );
    assert.ok(writes.every((w) => w.type === 'Create' && !w.event.message.startsWith('(combined')));
    const tenth = correlator.correlate(withMessage('Created pod: p9'), '2026-11-22T14:05:00Z');
    assert.equal(tenth.type === 'Create' && tenth.event.message, '(combined from similar events): Created pod: p9');
    const eleventh = correlator.correlate(withMessage('Created pod: p10'), '2026-11-22T14:05:01Z');
    assert.equal(eleventh.type, 'Patch');
    assert.deepEqual(eleventh.type === 'Patch' && eleventh.patch, {
      count: 2,
      lastTimestamp: '2026-11-22T14:05:01Z',
      message: '(combined from similar events): Created pod: p10',
    });
  });

  it('given the same 10 messages spaced more than 10 minutes apart, then none is combined', () => {
    const { clock, correlator } = given();
    const writes = Array.from(
      { length: 12 },
      (_, i) => (clock.advance(11 * MINUTE), correlator.correlate(withMessage(`m${i}`), T0)),
    );
    assert.ok(writes.every((w) => w.type === 'Create' && !w.event.message.startsWith('(combined')));
  });

  it('given 10 messages of different reasons, then none is combined', () => {
    const { correlator } = given();
    const writes = Array.from({ length: 12 }, (_, i) =>
      correlator.correlate({ ...withMessage(`m${i}`), reason: `R${i}` }, T0),
    );
    assert.deepEqual(new Set(writes.map(typeOf)), new Set(['Create']));
  });
});

describe('EventCorrelator: spam filter (EventSourceObjectSpamFilter)', () => {
  /** distinct events about one object (distinct reasons, so nothing aggregates). */
  const burstOf = (correlator: EventCorrelator, n: number, name = 'web'): EventWrite[] =>
    Array.from({ length: n }, (_, i) =>
      correlator.correlate({ ...anEvent, reason: `R${i}`, involvedObject: { ...anEvent.involvedObject, name } }, T0),
    );

  it('given 26 events from one source about one object at once, then 25 are written and the 26th dropped', () => {
    const { correlator } = given();
    const writes = burstOf(correlator, 26);
    assert.equal(writes.slice(0, 25).filter((w) => w.type === 'Drop').length, 0);
    assert.equal(writes[25]!.type, 'Drop');
  });

  it('given an exhausted source and object, then one more passes every 5 minutes, and other objects are unaffected', () => {
    const { clock, correlator } = given();
    burstOf(correlator, 25);
    assert.equal(burstOf(correlator, 1, 'db')[0]!.type, 'Create');
    clock.advance(5 * MINUTE - 1);
    assert.equal(correlator.correlate({ ...anEvent, reason: 'Late' }, T0).type, 'Drop');
    clock.advance(1);
    assert.equal(correlator.correlate({ ...anEvent, reason: 'Later' }, T0).type, 'Create');
    assert.equal(correlator.correlate({ ...anEvent, reason: 'Latest' }, T0).type, 'Drop');
  });

  it('given a Warning after 25 Normal events about one object, then it still passes (the spam key includes the type)', () => {
    const { correlator } = given();
    burstOf(correlator, 25);
    assert.equal(correlator.correlate({ ...anEvent, type: 'Warning', reason: 'FailedCreate' }, T0).type, 'Create');
  });
});

describe('EventCorrelator: memory stays bounded whatever producers send', () => {
  it('given events about 10000 distinct objects with 100 kB messages, then each cache holds at most 4096 entries and messages are cut to 1024', () => {
    const { correlator } = given();
    let last: EventWrite = { type: 'Drop' };
    for (let i = 0; i < 10_000; i++) {
      last = correlator.correlate(
        {
          ...withMessage(`m${i} ${'x'.repeat(100_000)}`),
          involvedObject: { ...anEvent.involvedObject, name: `rc-${i}` },
        },
        T0,
      );
    }
    assert.equal(last.type === 'Create' && last.event.message.length, 1024);
    assert.ok(last.type === 'Create' && last.event.message.endsWith(' ...'));
    assert.deepEqual(correlator.cacheSizes(), { aggregator: 4096, spamFilter: 4096, logs: 4096 });
  });
});
