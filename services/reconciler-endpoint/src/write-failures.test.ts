import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointsFixture, newService, storedEndpoints, testPod } from './endpoints.fixture.ts';

describe("failed writes (syncService's error path)", () => {
  const svc = newService('ns', 'foo', {
    selector: { foo: 'bar' },
    clusterIP: '10.0.0.1',
    ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
  });
  it('given a Create that failed, then FailedToCreateEndpoint is recorded and the sync returns the error; the next sync (after the backoff) creates', () => {
    const f = endpointsFixture({ services: [svc], pods: [testPod('ns', 0, 1, true)] });
    f.cluster.writeError = { resource: 'endpoints', message: 'boom' };
    const failures = f.write(f.sync('ns/foo'));
    const report = f.sync('ns/foo', failures);
    assert.deepEqual(
      report.mutations.map((m) => [m.verb, m.event?.reason, m.event?.message]),
      [['RecordEvent', 'FailedToCreateEndpoint', 'Failed to create endpoint for service ns/foo: boom']],
    );
    assert.match(report.error ?? '', /boom/);
    f.cluster.writeError = undefined;
    assert.equal(f.converge('ns/foo'), 1);
  });
  it('given an Update met a Conflict (a stale read), then FailedToUpdateEndpoint about the Endpoints, and the next sync writes on the fresh read', () => {
    const f = endpointsFixture({
      services: [svc],
      pods: [testPod('ns', 0, 1, true)],
      endpoints: [storedEndpoints('ns', 'foo', [])],
    });
    const stale = f.sync('ns/foo');
    f.cluster.objects.endpoints.set('ns/foo', storedEndpoints('ns', 'foo', [], { resourceVersion: '2' }));
    const report = f.sync('ns/foo', f.write(stale));
    assert.deepEqual(
      report.mutations.map((m) => [m.verb, m.event?.reason, m.event?.involvedObject.uid]),
      [['RecordEvent', 'FailedToUpdateEndpoint', 'ep-foo']],
    );
    assert.deepEqual([report.error !== undefined, report.freshRead], [true, true]);
    const retry = f.sync('ns/foo');
    assert.deepEqual(
      retry.mutations.map((m) => [m.verb, m.preconditions.resourceVersion]),
      [['Update', '2']],
    );
  });
  it('given a Create refused because the namespace is terminating, then no event', () => {
    const f = endpointsFixture({ services: [svc] });
    const failure = {
      ...f.write(f.sync('ns/foo'))[0],
      verb: 'Create' as const,
      target: {
        apiVersion: 'v1',
        kind: 'Endpoints',
        namespace: 'ns',
        name: 'foo',
        resource: 'endpoints',
        subresource: null,
      },
    };
    const result = f.sync('ns/foo', [
      {
        mutationId: 'x',
        controller: 'endpoints-controller',
        outcome: 'Failed',
        status: 403,
        reason: 'NamespaceTerminating',
        message: 'forbidden',
        name: 'foo',
        resourceVersion: null,
        uid: null,
        attempts: 1,
        appliedAt: '',
        reconcileKey: 'ns/foo',
        ...failure,
      },
    ]);
    assert.equal(result.mutations.filter((m) => m.verb === 'RecordEvent').length, 0);
    assert.equal(result.error, undefined, 'dropped, as upstream returns nil');
  });
});
