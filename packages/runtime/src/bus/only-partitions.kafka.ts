import { AssignerProtocol, type Assigner, type GroupMemberAssignment, type PartitionAssigner } from 'kafkajs';

/** ONLY_PARTITIONS_ASSIGNER_NAME is the protocol name of onlyPartitionsAssigner. */
export const ONLY_PARTITIONS_ASSIGNER_NAME = 'KcmBusOnlyPartitions';

const VERSION = 0;

/**
 * onlyPartitionsAssigner is a kafkajs partition assigner for the one member of an ephemeral group that reads some
 * partitions only (GroupOptions.partitions): it assigns those partition numbers of every subscribed topic to the
 * first member, and nothing to any other. kafkajs has no manual assignment (the Java client's assign()); this is its
 * stand-in, so a tool reading one key's partition fetches no other. Mirrors kafkajs's roundRobinAssigner's shape.
 */
export function onlyPartitionsAssigner(partitions: readonly number[]): PartitionAssigner {
  return (): Assigner => ({
    name: ONLY_PARTITIONS_ASSIGNER_NAME,
    version: VERSION,
    async assign({ members, topics }): Promise<GroupMemberAssignment[]> {
      return members.map((member, i) => ({
        memberId: member.memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: VERSION,
          assignment: Object.fromEntries(i === 0 ? topics.map((t) => [t, [...partitions]]) : []),
          userData: Buffer.alloc(0),
        }),
      }));
    },
    protocol({ topics }) {
      return {
        name: ONLY_PARTITIONS_ASSIGNER_NAME,
        metadata: AssignerProtocol.MemberMetadata.encode({ version: VERSION, topics, userData: Buffer.alloc(0) }),
      };
    },
  });
}
