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

const NODE_PORTS: readonly KafkaNode['ports'][] = [
  { client: 'kafka', controller: 'kafkaController', secure: 'kafkaSecure' },
  { client: 'kafka2', controller: 'kafka2Controller', secure: 'kafka2Secure' },
  { client: 'kafka3', controller: 'kafka3Controller', secure: 'kafka3Secure' },
];

/** kafkaNodes are the stack's Kafka nodes, node.id 1 first: one, or three in a cluster profile. */
export function kafkaNodes(c: StackConfig): readonly KafkaNode[] {
  return NODE_PORTS.slice(0, c.kafkaNodes).map((ports, i) => {
    const part = i === 0 ? 'kafka' : `kafka-${i + 1}`;
    return { id: i + 1, part, dir: join(c.dir, part), ports };
  });
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
