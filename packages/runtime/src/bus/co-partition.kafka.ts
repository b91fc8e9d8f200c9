import {
  AssignerProtocol,
  type Assigner,
  type GroupMember,
  type GroupMemberAssignment,
  type PartitionAssigner,
} from 'kafkajs';
import { coPartitionAssign } from '../consumer/co-partition.ts';

/** CO_PARTITION_ASSIGNER_NAME is the protocol name every member of a co-partitioned group must offer. */
export const CO_PARTITION_ASSIGNER_NAME = 'KcmBusCoPartition';

const VERSION = 0;

/**
 * coPartitionAssigner is a kafkajs partition assigner (consumer option `partitionAssigners`) that gives the same
 * partition number of every subscribed topic to the same member (coPartitionAssign). Global topics are not the
 * group's: each member reads them whole in an ephemeral group of its own. The group leader reads every member's
 * subscription from its metadata and the partition counts from the cluster; unequal counts make the leader's
 * rebalance fail with a CoPartitionError rather than split a namespace across members. Mirrors kafkajs's
 * roundRobinAssigner.
 */
export const coPartitionAssigner: PartitionAssigner = ({ cluster }): Assigner => ({
  name: CO_PARTITION_ASSIGNER_NAME,
  version: VERSION,
  async assign({ members }): Promise<GroupMemberAssignment[]> {
    const subscribed = members.map(subscriptionOf);
    const topics = [...new Set(subscribed.flatMap((m) => m.topics))];
    await cluster.addMultipleTargetTopics(topics);
    const partitionCounts = new Map(topics.map((t) => [t, cluster.findTopicPartitionMetadata(t).length]));
    const assignment = coPartitionAssign({ members: subscribed, partitionCounts, globalTopics: new Set() });
    return [...assignment].map(([memberId, share]) => ({
      memberId,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({
        version: VERSION,
        assignment: Object.fromEntries(Object.entries(share).map(([t, ps]) => [t, [...ps]])),
        userData: Buffer.alloc(0),
      }),
    }));
  },
  protocol({ topics }) {
    return {
      name: CO_PARTITION_ASSIGNER_NAME,
      metadata: AssignerProtocol.MemberMetadata.encode({ version: VERSION, topics, userData: Buffer.alloc(0) }),
    };
  },
});

/** subscriptionOf decodes a member's subscribed topics from the metadata its protocol() sent. */
function subscriptionOf(member: GroupMember): { readonly id: string; readonly topics: readonly string[] } {
  const metadata = AssignerProtocol.MemberMetadata.decode(member.memberMetadata);
  return { id: member.memberId, topics: metadata?.topics ?? [] };
}
