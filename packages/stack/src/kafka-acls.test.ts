import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KafkaAcl } from '@kcm-bus/runtime/bus/index.ts';
import { serviceAcls, SERVICES } from './kafka-acls.ts';

/** allowed tells whether the ACLs let a principal do an operation on a topic, as the authorizer matches them. */
function allowed(
  acls: readonly KafkaAcl[],
  principal: string,
  operation: KafkaAcl['operation'],
  topic: string,
): boolean {
  return acls.some(
    (a) =>
      a.principal === `User:${principal}` &&
      a.resourceType === 'TOPIC' &&
      a.operation === operation &&
      (a.prefixed ? topic.startsWith(a.resourceName) : topic === a.resourceName),
  );
}

const writers = (topic: string): string[] => SERVICES.filter((s) => allowed(serviceAcls(), s, 'WRITE', topic));

describe("the services' Kafka ACLs", () => {
  it('given the watch and state topics, then only the watcher may write them', () => {
    for (const topic of ['kcm.watch.pods', 'kcm.state.pods', 'kcm.watch.leases', 'kcm.state.nodes'])
      assert.deepEqual(writers(topic), ['watcher'], topic);
  });

  it('given kcm.mutations, then only the reconcilers may write it, and only the writer read it', () => {
    assert.deepEqual(writers('kcm.mutations'), [
      'reconciler-rc',
      'reconciler-endpoint',
      'reconciler-node',
      'reconciler-namespace',
    ]);
    assert.deepEqual(
      SERVICES.filter((s) => allowed(serviceAcls(), s, 'READ', 'kcm.mutations')),
      ['writer'],
    );
  });

  it('given kcm.mutation-results, then only the writer may write it', () => {
    assert.deepEqual(writers('kcm.mutation-results'), ['writer']);
  });

  it("given a reconciler, then it reads its own inputs and not another's (reconciler-rc reads no Leases)", () => {
    assert.ok(allowed(serviceAcls(), 'reconciler-rc', 'READ', 'kcm.state.pods'));
    assert.ok(allowed(serviceAcls(), 'reconciler-node', 'READ', 'kcm.state.leases'));
    assert.ok(!allowed(serviceAcls(), 'reconciler-rc', 'READ', 'kcm.state.leases'));
  });

  it("given any service, then it may delete no topic: the audit history is not the services' to erase", () => {
    assert.deepEqual(
      serviceAcls().filter((a) => a.resourceType === 'TOPIC' && a.operation === 'DELETE'),
      [],
    );
  });
});
