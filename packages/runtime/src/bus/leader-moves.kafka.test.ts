import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import {
  ConsumerGroup,
  followLeaderMoves,
  heartbeatInPlace,
  recoverInPlace,
  type MemberState,
} from './leader-moves.kafka.ts';

/** group is a consumer group's state as the recovery sees it, counting its metadata refreshes. */
function group(): { cluster: { refreshMetadata(): Promise<void> }; refreshes: number } {
  const g = {
    refreshes: 0,
    cluster: { refreshMetadata: async () => void g.refreshes++ },
  };
  return g;
}

/** kafkajs's recovery, recording what reached it. */
function kafkajsRecovery(): { calls: unknown[]; recover: (e: unknown) => Promise<void> } {
  const calls: unknown[] = [];
  return { calls, recover: async (e) => void calls.push(e) };
}

const protocolError = (type: string) => Object.assign(new Error(type), { name: 'KafkaJSProtocolError', type });
const named = (name: string) => Object.assign(new Error(name), { name });

describe('recoverInPlace', () => {
  for (const type of [
    'NOT_LEADER_FOR_PARTITION',
    'FENCED_LEADER_EPOCH',
    'UNKNOWN_LEADER_EPOCH',
    'LEADER_NOT_AVAILABLE',
  ]) {
    it(`given a fetch answered ${type}, then the leaders are looked up again and the group is not rejoined`, async () => {
      const kafkajs = kafkajsRecovery();
      const g = group();
      await recoverInPlace(kafkajs.recover, 0).call(g, protocolError(type));
      assert.equal(g.refreshes, 1);
      assert.deepEqual(kafkajs.calls, [], "kafkajs's recovery rejoins the group here");
    });
  }

  for (const name of ['KafkaJSConnectionError', 'KafkaJSRequestTimeoutError']) {
    it(`given a fetch whose broker did not answer (${name}), then it pauses, looks the leaders up and returns`, async () => {
      const kafkajs = kafkajsRecovery();
      const g = group();
      const started = performance.now();
      await recoverInPlace(kafkajs.recover, 30).call(g, named(name));
      assert.ok(performance.now() - started >= 25, 'the pause keeps a dead broker from being asked in a tight loop');
      assert.equal(g.refreshes, 1);
      assert.deepEqual(
        kafkajs.calls,
        [],
        "kafkajs's recovery throws this to the fetch manager, stopping every fetcher",
      );
    });
  }

  it('given any other failure (a closed connection, a partition gone, an offset out of range), then kafkajs recovers', async () => {
    const kafkajs = kafkajsRecovery();
    const g = group();
    const errors = [
      named('KafkaJSConnectionClosedError'),
      protocolError('UNKNOWN_TOPIC_OR_PARTITION'),
      named('KafkaJSOffsetOutOfRange'),
      undefined,
    ];
    for (const e of errors) await recoverInPlace(kafkajs.recover, 0).call(g, e);
    assert.deepEqual(kafkajs.calls, errors);
    assert.equal(g.refreshes, 0);
  });

  it('given the leaders cannot be looked up, then the fetch fails as kafkajs would have it', async () => {
    const g = { cluster: { refreshMetadata: async () => Promise.reject(named('KafkaJSConnectionError')) } };
    await assert.rejects(
      recoverInPlace(kafkajsRecovery().recover, 0).call(g, protocolError('NOT_LEADER_FOR_PARTITION')),
      { name: 'KafkaJSConnectionError' },
    );
  });
});

describe('followLeaderMoves', () => {
  it('given a consumer group class, when asked twice, then its recovery is wrapped once', async () => {
    const seen: unknown[] = [];
    class Group {
      cluster = { refreshMetadata: async () => undefined };
      async recoverFromFetch(e: unknown): Promise<void> {
        seen.push(e);
      }
      async heartbeat(): Promise<void> {}
    }
    followLeaderMoves(Group);
    followLeaderMoves(Group);
    const other = named('KafkaJSOffsetOutOfRange');
    await new Group().recoverFromFetch(other);
    await new Group().recoverFromFetch(protocolError('NOT_LEADER_FOR_PARTITION'));
    assert.deepEqual(seen, [other]);
  });

  it("given kafkajs's pinned ConsumerGroup, then it has the recovery and the heartbeat the change wraps", () => {
    assert.equal(typeof ConsumerGroup.prototype.recoverFromFetch, 'function');
    assert.equal(typeof ConsumerGroup.prototype.heartbeat, 'function');
  });
});

/** member is a joined member as the heartbeat sees it; its cluster answers lookups from `found`, counting them. */
function member(found: () => Promise<unknown>): MemberState & { lookups: number } {
  const m = {
    groupId: 'g',
    lookups: 0,
    cluster: { findGroupCoordinator: async () => (m.lookups++, found()) },
    coordinator: 'dead broker' as unknown,
    offsetManager: { coordinator: 'dead broker' as unknown },
    lastRequest: 0,
  };
  return m;
}

/** beats is kafkajs's heartbeat failing with each error in turn, then succeeding, counting its calls. */
function beats(...errors: unknown[]): { calls: number; heartbeat: () => Promise<void> } {
  const b = {
    calls: 0,
    heartbeat: async () => {
      const e = errors[b.calls++];
      if (e !== undefined) throw e;
    },
  };
  return b;
}

describe('heartbeatInPlace', () => {
  for (const e of [
    named('KafkaJSConnectionError'),
    named('KafkaJSRequestTimeoutError'),
    protocolError('NOT_COORDINATOR_FOR_GROUP'),
    protocolError('GROUP_COORDINATOR_NOT_AVAILABLE'),
  ]) {
    it(`given a heartbeat failed with ${e.message}, then the coordinator is looked up again and nothing is thrown`, async () => {
      const lookup = Promise.withResolvers<unknown>();
      const m = member(() => lookup.promise);
      const b = beats(e);
      const beat = heartbeatInPlace(b.heartbeat);
      await beat.call(m, { interval: 0 });
      await beat.call(m, { interval: 0 });
      assert.equal(b.calls, 1, 'no heartbeat is sent while the coordinator is looked up');
      lookup.resolve('new coordinator');
      await lookup.promise;
      await setImmediate();
      assert.equal(m.coordinator, 'new coordinator');
      assert.equal(m.offsetManager?.coordinator, 'new coordinator', 'commits go to the new coordinator too');
      await beat.call(m, { interval: 0 });
      assert.equal(b.calls, 2, 'heartbeats resume');
    });
  }

  for (const type of ['UNKNOWN_MEMBER_ID', 'REBALANCE_IN_PROGRESS', 'ILLEGAL_GENERATION']) {
    it(`given a heartbeat answered ${type}, then it is thrown as kafkajs has it (a rejoin)`, async () => {
      const m = member(async () => 'new coordinator');
      await assert.rejects(heartbeatInPlace(beats(protocolError(type)).heartbeat).call(m, { interval: 0 }), { type });
      assert.equal(m.lookups, 0);
    });
  }

  it('given the coordinator cannot be looked up, then the member keeps it and the next heartbeat tries again', async () => {
    const m = member(async () => Promise.reject(named('KafkaJSNumberOfRetriesExceeded')));
    const b = beats(named('KafkaJSConnectionError'), named('KafkaJSConnectionError'));
    const beat = heartbeatInPlace(b.heartbeat);
    await beat.call(m, { interval: 0 });
    await setImmediate();
    await beat.call(m, { interval: 0 });
    assert.equal(m.coordinator, 'dead broker');
    assert.deepEqual([b.calls, m.lookups], [2, 2]);
  });
});
