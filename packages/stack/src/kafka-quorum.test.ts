import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stackConfig } from './config.ts';
import { nodeOfLeader } from './kafka-quorum.ts';

const cluster = stackConfig('unit', { KCM_BUS_RUN_DIR: '/run/unit', KCM_BUS_KAFKA_NODES: '3' });

/** status is `kafka-metadata-quorum describe --status` as Kafka 4.4 prints it, with the given leader. */
const status = (leader: string): string =>
  [
    'ClusterId:              Zm9vYmFyYmF6cXV4MTIzNA',
    `LeaderId:               ${leader}`,
    'LeaderEpoch:            7',
    'HighWatermark:          5120',
    'MaxFollowerLag:         0',
    'CurrentVoters:          [{"id": 1}, {"id": 2}, {"id": 3}]',
  ].join('\n');

describe('nodeOfLeader', () => {
  it("reads the quorum's LeaderId as the stack's node of that id", () => {
    assert.equal(nodeOfLeader(cluster, status('2')).part, 'kafka-2');
  });

  it('fails, quoting the output, when the leader is no node of the stack or there is none', () => {
    assert.throws(() => nodeOfLeader(cluster, status('7')), /named no node of this stack[\s\S]*LeaderId: +7/);
    assert.throws(() => nodeOfLeader(cluster, 'Error while describing the quorum'), /named no node/);
  });
});
