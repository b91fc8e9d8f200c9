import { join } from 'node:path';
import type { StackConfig } from './config.ts';
import { kafkaNodes, type KafkaNode } from './kafka-nodes.ts';
import { authorizerProperties, secureListenerProperties, type KafkaSecureFiles } from './kafka-secure.ts';

/**
 * serverProperties: the loopback PLAINTEXT listener of the stack's own parts, tests and benchmarks (a super user), the
 * SASL_SSL one the services log in on as their own principals, and the authorizer that holds them to their ACLs.
 * The log cleaner's dedupe buffer is 8 MiB, not Kafka's 128: the cleaner zeroes the whole buffer before each log it
 * cleans (SkimpyOffsetMap.clear), and kcm-bus's state topics are compacted eagerly (STATE_TOPIC_CONFIGS), so with
 * 128 MiB that zeroing was 58 % of the broker's CPU under S1 (a JFR profile). 8 MiB hold over 300,000 keys a pass,
 * more than any partition of the benchmarks dirties between two cleanings.
 * One network thread per listener and two request handlers, not Kafka's 3 and 8, on a machine of two cores: each idle
 * thread polls. The controller's no-op record goes every 5 s, not every 500 ms (metadata.max.idle.interval.ms only
 * shows a quorum's liveness to brokers: a single node is its own quorum, a cluster's nodes each fetch from it). A bare broker's utime+stime over 60 s, read
 * from /proc: 0.96 CPU-s per minute with Kafka's defaults, 1.03 with the 5 s record alone (raft-io 0.20 → 0.05, its
 * request threads 0.41-0.53 either way), 0.63 with both (request threads 0.15-0.21). S13's broker with 10,000 pods:
 * 1.97 → 1.59. S1 and S4 under them stayed within their run-to-run spread (docs/benchmarks-history.md, session 15).
 * A cluster's nodes differ in their id and ports, and keep every record on three of them (replicationProperties).
 */
export function serverProperties(c: StackConfig, node: KafkaNode, secure: KafkaSecureFiles): string {
  const address = (port: keyof KafkaNode['ports']): string => `${c.host}:${c.ports[node.ports[port]]}`;
  const client = `PLAINTEXT://${address('client')}`;
  const secureListener = `SASL_SSL://${address('secure')}`;
  return [
    'process.roles=broker,controller',
    `node.id=${node.id}`,
    `controller.quorum.voters=${quorumVoters(c)}`,
    `listeners=${client},CONTROLLER://${address('controller')},${secureListener}`,
    `advertised.listeners=${client},${secureListener}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL',
    ...secureListenerProperties(secure),
    ...authorizerProperties(),
    `log.dirs=${join(node.dir, 'data')}`,
    ...replicationProperties(c),
    'group.initial.rebalance.delay.ms=0',
    'auto.create.topics.enable=false',
    'num.partitions=1',
    `log.cleaner.dedupe.buffer.size=${8 * 2 ** 20}`,
    'num.network.threads=1',
    'num.io.threads=2',
    'metadata.max.idle.interval.ms=5000',
    '',
  ].join('\n');
}

/**
 * replicationProperties are the server.properties lines that say how the cluster keeps its records. One node: every
 * topic and Kafka's own at one replica. Three: what docs/operations.md asks of a production cluster, as broker
 * defaults every kcm-bus topic takes (the services create theirs at the broker's default replication factor): three
 * replicas, a write acknowledged (acks=all, every kcm-bus producer) by every in-sync replica and refused while fewer
 * than two are in sync, no out-of-sync replica ever elected leader, and the same for the group offsets and the
 * transaction log.
 */
export function replicationProperties(c: StackConfig): string[] {
  if (c.kafkaNodes === 1)
    return [
      'offsets.topic.replication.factor=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
    ];
  return [
    `default.replication.factor=${c.kafkaNodes}`,
    'min.insync.replicas=2',
    'unclean.leader.election.enable=false',
    `offsets.topic.replication.factor=${c.kafkaNodes}`,
    `transaction.state.log.replication.factor=${c.kafkaNodes}`,
    'transaction.state.log.min.isr=2',
  ];
}

/** quorumVoters is controller.quorum.voters: every node's id at its controller listener (a static quorum). */
export function quorumVoters(c: StackConfig): string {
  return kafkaNodes(c)
    .map((n) => `${n.id}@${c.host}:${c.ports[n.ports.controller]}`)
    .join(',');
}
