import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KafkaMessage } from 'kafkajs';
import {
  busBatch,
  consumerConfig,
  groupTimeouts,
  latestAssignment,
  lostGeneration,
  nextAssignment,
  pausable,
  type Membership,
} from './group.kafka.ts';

/** message is a kafkajs record-batch entry with the given offset, key, value and headers. */
const message = (
  offset: string,
  key: Buffer | null,
  value: Buffer | null,
  headers: KafkaMessage['headers'] = {},
): KafkaMessage => ({ key, value, offset, timestamp: '1700000000000', attributes: 0, headers });

describe('busBatch', () => {
  it('given a kafkajs batch with a tombstone and header values, then the records keep bytes, offsets and headers as text', () => {
    const batch = busBatch({
      topic: 'kcm.mutation-dead-letters',
      partition: 2,
      lastOffset: () => '8',
      messages: [
        message('6', Buffer.from('ns/a'), null),
        message('7', null, Buffer.from('x'), { 'kcm-bus.reason': Buffer.from('undecodable'), absent: undefined }),
      ],
    });
    assert.deepEqual(batch, {
      topic: 'kcm.mutation-dead-letters',
      partition: 2,
      lastOffset: '8',
      records: [
        { key: Buffer.from('ns/a'), value: null, offset: '6', timestamp: '1700000000000', headers: {} },
        {
          key: null,
          value: Buffer.from('x'),
          offset: '7',
          timestamp: '1700000000000',
          headers: { 'kcm-bus.reason': 'undecodable' },
        },
      ],
    });
  });
});

/** brokerError is a KafkaJSProtocolError's shape: the broker's error type on an Error. */
const brokerError = (type: string): Error => Object.assign(new Error(`broker answered ${type}`), { type });
/** afterRetries is how kafkajs's retrier hands it on: a KafkaJSNonRetriableError whose cause is the broker's error. */
const afterRetries = (cause: Error): Error =>
  Object.assign(new Error(cause.message, { cause }), { name: 'KafkaJSNonRetriableError' });

describe('groupTimeouts', () => {
  /** KAFKAJS_IDLE_FETCH_MS is kafkajs's maxWaitTimeInMs: how long a fetch of quiet topics waits, with no heartbeat. */
  const KAFKAJS_IDLE_FETCH_MS = 5000;

  it('gives a group of one member a session that outlasts several idle fetches', () => {
    const t = groupTimeouts({ ephemeral: true });
    assert.ok(t.sessionTimeout >= 4 * KAFKAJS_IDLE_FETCH_MS, `session ${t.sessionTimeout} ms`);
    assert.ok(t.heartbeatInterval * 3 <= t.sessionTimeout);
  });

  it("keeps a shared group at the broker's shortest session, so a dead member's partitions move in 6 s", () => {
    assert.deepEqual(groupTimeouts({}), { sessionTimeout: 6000, heartbeatInterval: 2000 });
    assert.deepEqual(groupTimeouts({ ephemeral: false }), groupTimeouts({}));
  });
});

describe('consumerConfig', () => {
  const options = {
    groupId: 'g',
    topics: ['t'],
    fromBeginning: true,
    onBatch: async () => undefined,
    onCrash: () => {},
  };

  it("given a member that names its fetch wait, then its consumer's fetches wait that long", () => {
    assert.equal(consumerConfig({ ...options, maxWaitMs: 100 }).maxWaitTimeInMs, 100);
  });

  it("given a member that does not, then kafkajs's default stands and the group's session and read_committed do too", () => {
    const c = consumerConfig(options);
    assert.equal('maxWaitTimeInMs' in c, false);
    assert.equal(c.readUncommitted, false);
    assert.equal(c.sessionTimeout, groupTimeouts({}).sessionTimeout);
  });
});

describe('lostGeneration', () => {
  it('given a commit refused because the member is gone, as kafkajs wraps it after its retries, then it is a lost generation', () => {
    assert.equal(lostGeneration(afterRetries(brokerError('UNKNOWN_MEMBER_ID'))), true);
    assert.equal(lostGeneration(brokerError('ILLEGAL_GENERATION')), true);
  });

  it('given any other failure, then it is not (the commit fails as before)', () => {
    assert.equal(lostGeneration(afterRetries(brokerError('GROUP_AUTHORIZATION_FAILED'))), false);
    assert.equal(lostGeneration(new Error('socket hang up')), false);
  });
});

describe('nextAssignment: joins a moment apart', () => {
  const fresh = (): Membership => ({
    joined: true,
    generation: 0,
    assignment: Promise.resolve(),
    applying: Promise.resolve(),
  });

  it("given two joins whose offsets come back in the opposite order, then only the later join's assignment is applied", async () => {
    const membership = fresh();
    const applied: string[] = [];
    const first = Promise.withResolvers<string>();
    const second = Promise.withResolvers<string>();
    nextAssignment(
      membership,
      () => first.promise,
      async (a) => void applied.push(a),
    );
    nextAssignment(
      membership,
      () => second.promise,
      async (a) => void applied.push(a),
    );
    second.resolve('second');
    await latestAssignment(membership);
    first.resolve('first');
    await first.promise;
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(applied, ['second'], "the first join's late answer must not reset what the second restored");
  });

  it("given a join while an earlier join's onAssigned runs, then the later one applies after it has finished, and a batch waits for it", async () => {
    const membership = fresh();
    const events: string[] = [];
    const firstApplying = Promise.withResolvers<void>();
    nextAssignment(
      membership,
      async () => 'first',
      async (a) => {
        events.push(`${a} starts`);
        await firstApplying.promise;
        events.push(`${a} ends`);
      },
    );
    await new Promise((resolve) => setImmediate(resolve));
    const batch = latestAssignment(membership).then(() => void events.push('batch'));
    nextAssignment(
      membership,
      async () => 'second',
      async (a) => void events.push(`${a} applied`),
    );
    firstApplying.resolve();
    await batch;
    assert.deepEqual(events, ['first starts', 'first ends', 'second applied', 'batch']);
  });
});

describe('pausable', () => {
  it('given a member that began to stop, then pause and resume leave its torn-down consumer alone', () => {
    const calls: string[] = [];
    const consumer = {
      pause: () => void calls.push('pause'),
      resume: () => void calls.push('resume'),
      seek: (tp: { offset: string }) => void calls.push(`seek ${tp.offset}`),
    };
    let stopping = false;
    const member = pausable(consumer, () => stopping);
    member.pause([{ topic: 'kcm.state.pods', partition: 1 }]);
    member.resume([{ topic: 'kcm.watch.pods', partition: 1, offset: '42' }]);
    assert.deepEqual(calls, ['pause', 'seek 42', 'resume']);
    stopping = true;
    member.pause([{ topic: 'kcm.state.pods', partition: 2 }]);
    member.resume([{ topic: 'kcm.watch.pods', partition: 2, offset: '7' }]);
    assert.deepEqual(calls, ['pause', 'seek 42', 'resume'], 'a hand-off during the stop throws nothing');
  });
});
