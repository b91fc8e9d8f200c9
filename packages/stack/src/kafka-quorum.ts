import type { StackConfig } from './config.ts';
import { java } from './kafka-java.ts';
import { firstKafkaNode, kafkaAddresses, kafkaNodes, type KafkaNode } from './kafka-nodes.ts';
import { selectedKafka } from './kafka-versions.ts';
import type { Binaries } from './obtain-all.ts';
import { sh } from './sh.ts';

/**
 * activeController is the KRaft node leading the controller quorum now, as kafka-metadata-quorum.sh `describe --status`
 * prints it (its LeaderId). A broker's Metadata answer cannot say: in KRaft it names a random live broker as the
 * controller, since clients never talk to the quorum.
 */
export async function activeController(c: StackConfig, b: Binaries): Promise<KafkaNode> {
  const tool = java(b, selectedKafka(), firstKafkaNode(c).dir, 'org.apache.kafka.tools.MetadataQuorumCommand', [
    '--bootstrap-server',
    kafkaAddresses(c, 'client').join(','),
    'describe',
    '--status',
  ]);
  const output = await sh(tool.command, tool.args);
  return nodeOfLeader(c, output);
}

/** nodeOfLeader reads the LeaderId line of `describe --status`'s output as one of the stack's nodes. */
export function nodeOfLeader(c: StackConfig, output: string): KafkaNode {
  const id = Number(/^LeaderId:\s+(\d+)\s*$/m.exec(output)?.[1]);
  const node = kafkaNodes(c).find((n) => n.id === id);
  if (!node)
    throw new Error(`kafka-metadata-quorum named no node of this stack as the leader:\n${output.slice(-1000)}`);
  return node;
}
