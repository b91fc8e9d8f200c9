import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  coPartitionAssign,
  CoPartitionError,
  type GroupMember,
  rangeFor,
  type TopicAssignment,
} from './co-partition.ts';

const PODS = 'kcm.watch.pods';
const RCS = 'kcm.watch.replicationcontrollers';
const NODES = 'kcm.watch.nodes';
const INPUTS = [PODS, RCS, NODES];

function members(...ids: string[]): GroupMember[] {
  return ids.map((id) => ({ id, topics: INPUTS }));
}

function assign(group: readonly GroupMember[], partitions = 6): ReadonlyMap<string, TopicAssignment> {
  const partitionCounts = new Map([
    [PODS, partitions],
    [RCS, partitions],
    [NODES, 1],
  ]);
  return coPartitionAssign({ members: group, partitionCounts, globalTopics: new Set([NODES]) });
}

/** ownerOf maps each partition number to the one member holding it on every co-partitioned topic (fails otherwise). */
function ownerOf(assignment: ReadonlyMap<string, TopicAssignment>): Map<number, string> {
  const owners = new Map<number, string>();
  for (const [member, topics] of assignment) {
    assert.deepEqual(topics[PODS] ?? [], topics[RCS] ?? [], `${member} holds different numbers of pods and RCs`);
    for (const p of topics[PODS] ?? []) {
      assert.equal(owners.has(p), false, `partition ${p} given twice`);
      owners.set(p, member);
    }
  }
  return owners;
}

describe('coPartitionAssign', () => {
  it('given 3 members and 6 partitions, then each gets 2 whole partition numbers of both topics, in id order', () => {
    assert.deepEqual(
      [...assign(members('m-b', 'm-c', 'm-a'))],
      [
        ['m-a', { [PODS]: [0, 1], [RCS]: [0, 1] }],
        ['m-b', { [PODS]: [2, 3], [RCS]: [2, 3] }],
        ['m-c', { [PODS]: [4, 5], [RCS]: [4, 5] }],
      ],
    );
  });

  it('given the same members in another order, then the assignment is the same', () => {
    assert.deepEqual(assign(members('z', 'a', 'q', 'c')), assign(members('c', 'q', 'a', 'z')));
  });

  it('given 4 members and 10 partitions, then shares differ by at most one and cover every partition once', () => {
    const assignment = assign(members('a', 'b', 'c', 'd'), 10);
    const sizes = [...assignment.values()].map((t) => t[PODS]?.length ?? 0);
    assert.deepEqual(sizes, [3, 3, 2, 2]);
    assert.deepEqual(
      [...ownerOf(assignment).keys()].sort((x, y) => x - y),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
  });

  it('given a global topic, then no member is assigned it through the group', () => {
    for (const topics of assign(members('a', 'b')).values()) assert.equal(topics[NODES], undefined);
  });

  it('given a member joins and then one leaves, then partition numbers move whole: pods and RCs of a number stay together', () => {
    const before = ownerOf(assign(members('a', 'b')));
    const joined = ownerOf(assign(members('a', 'b', 'c')));
    const left = ownerOf(assign(members('a', 'c')));
    for (const owners of [before, joined, left]) assert.equal(owners.size, 6);
    assert.deepEqual([...joined.values()].filter((m) => m === 'c').length, 2);
    assert.deepEqual(new Set(left.values()), new Set(['a', 'c']));
  });

  it('given more members than partitions, then the extra members get nothing but still appear', () => {
    const assignment = assign(members('a', 'b', 'c'), 2);
    assert.deepEqual(assignment.get('c'), {});
    assert.equal(ownerOf(assignment).size, 2);
  });

  it('given co-partitioned topics with different partition counts, then it fails naming each count', () => {
    const partitionCounts = new Map([
      [PODS, 6],
      [RCS, 3],
    ]);
    assert.throws(
      () =>
        coPartitionAssign({ members: [{ id: 'a', topics: [PODS, RCS] }], partitionCounts, globalTopics: new Set() }),
      (err: unknown) =>
        err instanceof CoPartitionError &&
        /same number of partitions: kcm.watch.pods has 6, kcm.watch.replicationcontrollers has 3/.test(err.message),
    );
  });

  it('given a subscribed topic without metadata, then it fails naming the topic', () => {
    assert.throws(
      () =>
        coPartitionAssign({
          members: members('a'),
          partitionCounts: new Map([[PODS, 6]]),
          globalTopics: new Set([NODES]),
        }),
      /no partition metadata for topic\(s\) kcm.watch.replicationcontrollers/,
    );
  });

  it('given a member on an older subscription, then only members subscribed to every topic get partitions', () => {
    const group = [...members('new'), { id: 'old', topics: [PODS] }];
    const assignment = assign(group);
    assert.deepEqual(assignment.get('old'), {});
    assert.deepEqual(assignment.get('new'), { [PODS]: [0, 1, 2, 3, 4, 5], [RCS]: [0, 1, 2, 3, 4, 5] });
  });

  it('given no member subscribed to every topic, then it fails naming the subscriptions', () => {
    const group = [
      { id: 'x', topics: [PODS] },
      { id: 'y', topics: [RCS] },
    ];
    assert.throws(
      () => assign(group),
      /no member subscribes to every co-partitioned topic.*x \[kcm.watch.pods\]; y \[kcm.watch.replicationcontrollers\]/,
    );
  });

  it('given only global topics, then every member gets nothing', () => {
    const group = [{ id: 'a', topics: [NODES] }];
    assert.deepEqual([...assign(group)], [['a', {}]]);
  });
});

describe('rangeFor', () => {
  it("given 7 partitions over 3 members, then the first member takes the extra one, as Kafka's RangeAssignor", () => {
    assert.deepEqual(
      [0, 1, 2].map((i) => rangeFor(i, 3, 7)),
      [
        [0, 1, 2],
        [3, 4],
        [5, 6],
      ],
    );
  });
});
