import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { Listers, ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { failedWrite, syncInput } from '../namespace.fixture.ts';
import { quotaControllerSpec } from './quota-controller.ts';
import {
  BY_NAMESPACE,
  byNamespace,
  COUNTED_INPUTS,
  type Counted,
  type Quota,
  type QuotaInputs,
} from './quota-objects.ts';

const NOW = new Date('2026-11-29T00:00:00Z');
const RESYNC_MS = 300_000;

const quota = (name: string, hard: Record<string, string>, status?: Quota['status']): Quota => ({
  metadata: { namespace: 'ns', name, uid: `uid-${name}`, resourceVersion: '5' },
  spec: { hard },
  ...(status === undefined ? {} : { status }),
});
const pod = (name: string, cpu?: string, phase = 'Running'): Counted =>
  ({
    metadata: { namespace: 'ns', name, uid: `uid-${name}` },
    spec: { containers: [{ name: 'c', resources: cpu === undefined ? {} : { requests: { cpu }, limits: { cpu } } }] },
    status: { phase },
  }) as Counted;
const configMap = (name: string, namespace = 'ns'): Counted => ({ metadata: { namespace, name, uid: `uid-${name}` } });

/** specOf is the controller on stores holding these quotas, pods and config maps. */
function specOf(quotas: readonly Quota[], pods: readonly Counted[] = [], configMaps: readonly Counted[] = []) {
  const indexed = <T extends Counted>(objects: readonly T[]) => listerOf(objects, { [BY_NAMESPACE]: byNamespace });
  const empty = Object.fromEntries(Object.keys(COUNTED_INPUTS).map((k) => [k, indexed([])]));
  const listers = {
    ...empty,
    resourceQuotas: indexed(quotas),
    pods: indexed(pods),
    configMaps: indexed(configMaps),
  } as unknown as Listers<QuotaInputs>;
  return quotaControllerSpec(listers, RESYNC_MS, () => NOW);
}

const event = <T>(type: 'Applied' | 'Deleted', object: T, old?: T): ObjectEvent<T> =>
  ({ type, key: 'ns/x', object, old, live: true }) as ObjectEvent<T>;
const HARD = { pods: '10', 'requests.cpu': '1', 'count/configmaps': '5' };

describe('resourcequota-controller (syncResourceQuota and the monitors)', () => {
  it('given a quota with no status, then its status is written at once: hard, and used at upstream strings', () => {
    const spec = specOf(
      [quota('q', HARD)],
      [pod('a', '250m'), pod('b', '0.5'), pod('done', '1', 'Succeeded')],
      [configMap('c'), configMap('other', 'elsewhere')],
    );
    const d = spec.reconcile('ns/q', { ...syncInput(), now: NOW });
    assert.equal(d.mutations.length, 1);
    const m = d.mutations[0]!;
    assert.deepEqual(
      [m.verb, m.target.resource, m.target.subresource, m.preconditions],
      ['UpdateStatus', 'resourcequotas', null, { uid: 'uid-q', resourceVersion: '5' }],
    );
    assert.deepEqual((JSON.parse(m.body!) as Quota).status, {
      hard: HARD,
      used: { pods: '2', 'requests.cpu': '750m', 'count/configmaps': '1' },
    });
    assert.equal(d.requeueAfterMs, RESYNC_MS);
  });

  it('given a status that is already right, then nothing is written; a quota gone is nothing', () => {
    const status = { hard: HARD, used: { pods: '1', 'requests.cpu': '250m', 'count/configmaps': '0' } };
    const spec = specOf([quota('q', HARD, status)], [pod('a', '250m')]);
    assert.deepEqual(spec.reconcile('ns/q', { ...syncInput(), now: NOW }).mutations, []);
    assert.deepEqual(spec.reconcile('ns/gone', { ...syncInput(), now: NOW }), { mutations: [] });
  });

  it('given a malformed quantity in the quota (a forged record), then the rest is written and the sync warns, not retried', () => {
    const spec = specOf([quota('q', { pods: '10', 'requests.cpu': 'lots' })], [pod('a', '250m')]);
    const d = spec.reconcile('ns/q', { ...syncInput(), now: NOW });
    assert.deepEqual((JSON.parse(d.mutations[0]!.body!) as Quota).status, {
      hard: { pods: '10' },
      used: { pods: '1' },
    });
    assert.match(d.warning ?? '', /resourcequota ns\/q spec\.hard.*requests\.cpu.*lots/);
    assert.equal(d.error, undefined);
  });

  it('given a failed status write (a conflict), then the sync fails and is retried; a quota deleted meanwhile is not', () => {
    const spec = specOf([quota('q', HARD)]);
    const write = {
      controller: 'resourcequota-controller',
      verb: 'UpdateStatus' as const,
      kind: 'ResourceQuota',
      resource: 'resourcequotas',
      name: 'q',
    };
    const conflict = failedWrite(write, 'Conflict', 'Conflict');
    assert.match(spec.reconcile('ns/q', { ...syncInput([conflict]), now: NOW }).error ?? '', /UpdateStatus default\/q/);
    const gone = { ...failedWrite(write, 'Failed', 'NotFound'), status: 404 };
    assert.equal(spec.reconcile('ns/q', { ...syncInput([gone]), now: NOW }).error, undefined);
  });

  it('given a quota added, deleted, or its spec.hard changed, then it is synced; a status-only change is not', () => {
    const spec = specOf([]);
    const q = quota('q', HARD);
    assert.deepEqual(spec.handlers.resourceQuotas(event('Applied', q)).enqueue, ['ns/x']);
    assert.deepEqual(spec.handlers.resourceQuotas(event('Deleted', q)).enqueue, ['ns/x']);
    const statusOnly = quota('q', { ...HARD, pods: '10.0' }, { hard: HARD, used: {} });
    assert.deepEqual(spec.handlers.resourceQuotas(event('Applied', statusOnly, q)).enqueue, []);
    assert.deepEqual(spec.handlers.resourceQuotas(event('Applied', quota('q', { pods: '11' }), q)).enqueue, ['ns/x']);
    const huge = quota('q', { ...HARD, pods: '1e5000' });
    assert.deepEqual(
      spec.handlers.resourceQuotas(event('Applied', huge, q)).enqueue,
      ['ns/x'],
      'a forged hard: no throw',
    );
  });

  it('given an object deleted, then the quotas of its namespace that track its resource are synced, and only those', () => {
    const tracking = quota('counts', HARD, { hard: HARD });
    const other = quota('services', { services: '1' }, { hard: { services: '1' } });
    const spec = specOf([tracking, other]);
    assert.deepEqual(spec.handlers.configMaps(event('Deleted', configMap('c'))).enqueue, ['ns/counts']);
    assert.deepEqual(spec.handlers.configMaps(event('Deleted', configMap('c', 'elsewhere'))).enqueue, []);
    assert.deepEqual(spec.handlers.configMaps(event('Applied', configMap('c'))).enqueue, []);
  });

  it('given a pod turning terminal, then its quotas are synced; a pod changing nothing they charge is not', () => {
    const spec = specOf([quota('q', HARD, { hard: HARD })]);
    const running = pod('a', '250m');
    assert.deepEqual(spec.handlers.pods(event('Applied', pod('a', '250m', 'Failed'), running)).enqueue, ['ns/q']);
    const relabeled = { ...running, metadata: { ...running.metadata, labels: { a: 'b' } } };
    assert.deepEqual(spec.handlers.pods(event('Applied', relabeled, running)).enqueue, []);
  });
});
