import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AssignerProtocol, type Cluster, type PartitionMetadata } from 'kafkajs';
import { CO_PARTITION_ASSIGNER_NAME, coPartitionAssigner } from './co-partition.kafka.ts';

const COUNTS: Readonly<Record<string, number>> = {
  'kcm.watch.pods': 4,
  'kcm.watch.replicationcontrollers': 4,
  'kcm.watch.services': 3,
};

/** fakeCluster answers partition metadata from COUNTS and records the topics the assigner asked about. */
function fakeCluster(asked: string[]): Cluster {
  const partitionsOf = (topic: string): PartitionMetadata[] =>
    Array.from({ length: COUNTS[topic] ?? 0 }, (_, partitionId) => ({
      partitionId,
      leader: 0,
      replicas: [0],
      isr: [0],
      partitionErrorCode: 0,
      offlineReplicas: [],
    }));
  return {
    addMultipleTargetTopics: async (topics: string[]) => void asked.push(...topics),
    findTopicPartitionMetadata: partitionsOf,
  } as Partial<Cluster> as Cluster;
}

function givenAssigner(asked: string[] = []) {
  const assigner = coPartitionAssigner({ cluster: fakeCluster(asked), groupId: 'g', logger: undefined as never });
  const member = (memberId: string, topics: string[]) => ({
    memberId,
    memberMetadata: assigner.protocol({ topics }).metadata,
  });
  return { assigner, member };
}

describe('coPartitionAssigner (kafkajs)', () => {
  it('given its protocol, then it names the assigner and encodes the subscription as kafkajs MemberMetadata', () => {
    const { assigner } = givenAssigner();
    const state = assigner.protocol({ topics: ['kcm.watch.pods'] });
    assert.equal(state.name, CO_PARTITION_ASSIGNER_NAME);
    assert.deepEqual(AssignerProtocol.MemberMetadata.decode(state.metadata)?.topics, ['kcm.watch.pods']);
  });

  it('given two members, then each decoded assignment holds the same numbers of both topics', async () => {
    const asked: string[] = [];
    const { assigner, member } = givenAssigner(asked);
    const topics = ['kcm.watch.pods', 'kcm.watch.replicationcontrollers'];
    const result = await assigner.assign({ members: [member('m2', topics), member('m1', topics)], topics });
    const decoded = Object.fromEntries(
      result.map((r) => [r.memberId, AssignerProtocol.MemberAssignment.decode(r.memberAssignment)?.assignment]),
    );
    assert.deepEqual(decoded, {
      m1: { 'kcm.watch.pods': [0, 1], 'kcm.watch.replicationcontrollers': [0, 1] },
      m2: { 'kcm.watch.pods': [2, 3], 'kcm.watch.replicationcontrollers': [2, 3] },
    });
    assert.deepEqual(asked.sort(), ['kcm.watch.pods', 'kcm.watch.replicationcontrollers']);
  });

  it('given a co-partitioned topic with another partition count, then the assignment fails', async () => {
    const { assigner, member } = givenAssigner();
    const topics = ['kcm.watch.pods', 'kcm.watch.services'];
    await assert.rejects(
      assigner.assign({ members: [member('m1', topics)], topics }),
      /same number of partitions: kcm.watch.pods has 4, kcm.watch.services has 3/,
    );
  });
});
