import { join } from 'node:path';
import type { PortName, StackConfig } from './config.ts';

/**
 * KafkaNode is one KRaft node of the stack's Kafka (a broker and a controller in one process): its node.id, its part
 * name (the first is "kafka", as a single-node stack has always called it), its state folder and its three ports.
 */
export type KafkaNode = {
  readonly id: number;
  readonly part: string;
  readonly dir: string;
  readonly ports: { readonly client: PortName; readonly controller: PortName; readonly secure: PortName };
};

/** NODES are every node a stack can run, node.id order; the first is "kafka", as a single-node stack has always called it. */
const NODES: readonly Omit<KafkaNode, 'dir'>[] = [
  { id: 1, part: 'kafka', ports: { client: 'kafka', controller: 'kafkaController', secure: 'kafkaSecure' } },
  { id: 2, part: 'kafka-2', ports: { client: 'kafka2', controller: 'kafka2Controller', secure: 'kafka2Secure' } },
  { id: 3, part: 'kafka-3', ports: { client: 'kafka3', controller: 'kafka3Controller', secure: 'kafka3Secure' } },
];

/** KAFKA_PARTS are the part names of every node a stack can run. */
export const KAFKA_PARTS: readonly string[] = NODES.map((n) => n.part);

/** kafkaNodes are the stack's Kafka nodes, node.id 1 first: one, or three in a cluster profile. */
export function kafkaNodes(c: StackConfig): readonly KafkaNode[] {
  return NODES.slice(0, c.kafkaNodes).map((n) => ({ ...n, dir: join(c.dir, n.part) }));
}

/** firstKafkaNode is node.id 1: the one a single-node stack runs, and the one the cluster's ACLs are granted through. */
export function firstKafkaNode(c: StackConfig): KafkaNode {
  const [first] = kafkaNodes(c);
  if (!first) throw new Error('a stack has at least one Kafka node');
  return first;
}

/** kafkaAddresses are every node's address on one of its listeners, node.id order: a bootstrap list. */
export function kafkaAddresses(c: StackConfig, listener: keyof KafkaNode['ports']): string[] {
  return kafkaNodes(c).map((n) => `${c.host}:${c.ports[n.ports[listener]]}`);
}
