import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stackConfig } from './config.ts';
import { kafkaAddresses, kafkaNodes } from './kafka-nodes.ts';
import { quorumVoters, replicationProperties, serverProperties } from './kafka-properties.ts';

const single = stackConfig('unit', { KCM_BUS_RUN_DIR: '/run/unit', KCM_BUS_PORT_BASE: '20000' });
const cluster = stackConfig('unit', {
  KCM_BUS_RUN_DIR: '/run/unit',
  KCM_BUS_PORT_BASE: '20000',
  KCM_BUS_KAFKA_NODES: '3',
});
const files = { keystore: '/k.pem', password: 'p', servicePasswords: new Map() };

/** property reads one key of a server.properties text. */
const property = (text: string, key: string): string | undefined =>
  text
    .split('\n')
    .find((l) => l.startsWith(`${key}=`))
    ?.slice(key.length + 1);

describe('kafkaNodes', () => {
  it('is the one node "kafka" a single-node stack has always run, in its old folder and on its old ports', () => {
    assert.deepEqual(
      kafkaNodes(single).map((n) => [n.id, n.part, n.dir]),
      [[1, 'kafka', '/run/unit/kafka']],
    );
    assert.deepEqual(kafkaAddresses(single, 'client'), [`127.0.0.1:${single.ports.kafka}`]);
  });

  it('is three nodes in a cluster, each with its own id, folder and ports, all voters of one quorum', () => {
    const nodes = kafkaNodes(cluster);
    assert.deepEqual(
      nodes.map((n) => [n.id, n.part, n.dir]),
      [
        [1, 'kafka', '/run/unit/kafka'],
        [2, 'kafka-2', '/run/unit/kafka-2'],
        [3, 'kafka-3', '/run/unit/kafka-3'],
      ],
    );
    const ports = nodes.flatMap((n) => Object.values(n.ports).map((p) => cluster.ports[p]));
    assert.equal(new Set(ports).size, 9);
    assert.equal(
      quorumVoters(cluster),
      nodes.map((n) => `${n.id}@127.0.0.1:${cluster.ports[n.ports.controller]}`).join(','),
    );
  });
});

describe('serverProperties of a cluster node', () => {
  it("names the node's own id and listeners, and every node as a voter", () => {
    const node = kafkaNodes(cluster)[1];
    assert.ok(node);
    const text = serverProperties(cluster, node, files);
    assert.equal(property(text, 'node.id'), '2');
    assert.equal(property(text, 'controller.quorum.voters'), quorumVoters(cluster));
    assert.match(property(text, 'listeners') ?? '', new RegExp(`PLAINTEXT://127.0.0.1:${cluster.ports.kafka2},`));
    assert.equal(property(text, 'log.dirs'), '/run/unit/kafka-2/data');
  });

  it('keeps every record on three nodes, acknowledged by two, with no unclean election; one node keeps one', () => {
    const text = serverProperties(cluster, kafkaNodes(cluster)[0] ?? assert.fail(), files);
    for (const [key, value] of [
      ['default.replication.factor', '3'],
      ['min.insync.replicas', '2'],
      ['unclean.leader.election.enable', 'false'],
      ['offsets.topic.replication.factor', '3'],
      ['transaction.state.log.replication.factor', '3'],
      ['transaction.state.log.min.isr', '2'],
    ])
      assert.equal(property(text, key ?? ''), value, key);
    assert.deepEqual(replicationProperties(single), [
      'offsets.topic.replication.factor=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
    ]);
  });
});
