import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AssignerProtocol, type Cluster } from 'kafkajs';
import { ONLY_PARTITIONS_ASSIGNER_NAME, onlyPartitionsAssigner } from './only-partitions.kafka.ts';

describe('onlyPartitionsAssigner (kafkajs)', () => {
  const assigner = onlyPartitionsAssigner([2])({ cluster: {} as Cluster, groupId: 'g', logger: undefined as never });
  const member = (memberId: string) => ({
    memberId,
    memberMetadata: assigner.protocol({ topics: ['kcm.mutations'] }).metadata,
  });

  it('given its protocol, then it names the assigner', () => {
    assert.equal(assigner.protocol({ topics: ['kcm.mutations'] }).name, ONLY_PARTITIONS_ASSIGNER_NAME);
  });

  it('given a member (and a stray second one), then the first gets the listed partitions of every topic, the second nothing', async () => {
    const result = await assigner.assign({
      members: [member('m1'), member('m2')],
      topics: ['kcm.mutations', 'kcm.mutation-results'],
    });
    const decoded = Object.fromEntries(
      result.map((r) => [r.memberId, AssignerProtocol.MemberAssignment.decode(r.memberAssignment)?.assignment]),
    );
    assert.deepEqual(decoded, { m1: { 'kcm.mutations': [2], 'kcm.mutation-results': [2] }, m2: {} });
  });
});
