import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RETRY_POLICY } from '../backoff.ts';
import type { KubeRequest } from '../request.ts';
import type { SendDeps } from '../send.ts';
import { DISCOVERY_ACCEPT, type Discovered, discoverDeletableResources } from './discovery.ts';

type Reply = readonly [number, object];
const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const kind = { group: '', version: 'v1', kind: 'Thing' };
const res = (resource: string, scope = 'Namespaced', verbs = ALL) => ({ resource, scope, verbs, responseKind: kind });
const ver = (version: string, resources: object[], freshness = 'Current') => ({ version, freshness, resources });
const grp = (name: string, ...versions: object[]) => ({ metadata: { name }, versions });
const doc = (...items: object[]) => ({ apiVersion: 'apidiscovery.k8s.io/v2', kind: 'APIGroupDiscoveryList', items });
const status = (code: number, message: string): Reply => [code, { kind: 'Status', code, message }];
const CORE = doc(grp('', ver('v1', [res('pods')])));

/** discover runs discovery against an API answering GET /api and /apis with these replies (in turn, the last repeats). */
async function discover(api: readonly Reply[], apis: readonly Reply[]) {
  const sent: KubeRequest[] = [];
  const replies: Record<string, readonly Reply[]> = { '/api': api, '/apis': apis };
  const deps: SendDeps = {
    api: {
      send: async (r) => {
        const mine = replies[r.path] ?? [];
        const [status, body] = mine[Math.min(sent.filter((s) => s.path === r.path).length, mine.length - 1)] ?? [];
        sent.push(r);
        return { type: 'Response', status: status ?? 404, retryAfter: null, body: JSON.stringify(body ?? {}) };
      },
    },
    budget: { acquire: async () => {} },
    scheduler: { setTimeout: (fn) => queueMicrotask(fn), clearTimeout: () => {} },
    random: () => 0,
    policy: DEFAULT_RETRY_POLICY,
  };
  return { discovered: await discoverDeletableResources('namespace-controller', deps), sent };
}

const gvrs = (d: Discovered): string[] => d.resources.map((r) => `${r.group}/${r.version}/${r.resource}`).sort();

describe('discoverDeletableResources (ServerPreferredNamespacedResources, FilteredBy delete, GroupVersionResources)', () => {
  it("asks GET /api, then GET /apis, with client-go's aggregated discovery Accept header", async () => {
    const { sent, discovered } = await discover([[200, CORE]], [[200, doc()]]);
    assert.deepEqual(
      sent.map((r) => [r.method, r.path, r.headers['Accept']]),
      [
        ['GET', '/api', DISCOVERY_ACCEPT],
        ['GET', '/apis', DISCOVERY_ACCEPT],
      ],
    );
    assert.equal(
      DISCOVERY_ACCEPT,
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    );
    assert.deepEqual(gvrs(discovered), ['/v1/pods']);
    assert.equal(discovered.attempts, 2);
  });

  it('takes each group resource from the first version serving it: the preferred one, else the next', async () => {
    const apps = grp('apps', ver('v2', [res('foos'), res('bars')]), ver('v1', [res('foos'), res('bazs')]));
    const { discovered } = await discover([[200, CORE]], [[200, doc(apps)]]);
    assert.deepEqual(gvrs(discovered), ['/v1/pods', 'apps/v1/bazs', 'apps/v2/bars', 'apps/v2/foos']);
  });

  it('keeps namespaced resources that can be deleted; subresources and resources without a kind are dropped', async () => {
    const core = grp(
      '',
      ver('v1', [
        res('pods'),
        res('nodes', 'Cluster'),
        res('events', 'Namespaced', ['get', 'list']),
        res('pods/status'),
        { resource: 'bindings', scope: 'Namespaced', verbs: ALL },
      ]),
    );
    const { discovered } = await discover([[200, doc(core)]], [[200, doc()]]);
    assert.deepEqual(discovered.resources, [{ group: '', version: 'v1', resource: 'pods', verbs: ALL }]);
  });

  it('reports stale group versions as ErrGroupDiscoveryFailed (sorted) and keeps the fresh ones', async () => {
    const metrics = grp('metrics.k8s.io', ver('v1beta1', [res('pods')], 'Stale'));
    const widgets = grp('b.io', ver('v2', [res('widgets')], 'Stale'), ver('v1', [res('widgets')]));
    const { discovered } = await discover([[200, CORE]], [[200, doc(metrics, widgets)]]);
    assert.deepEqual(gvrs(discovered), ['/v1/pods', 'b.io/v1/widgets']);
    assert.equal(
      discovered.discoveryError,
      'unable to retrieve the complete list of server APIs: b.io/v2: stale GroupVersion discovery: b.io/v2, ' +
        'metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
    );
    assert.equal(discovered.discoveryFailedGroups, 2);
    assert.equal(discovered.groupVersionError, null);
  });

  it('tolerates a 404 on /api; a failed or unaggregated /apis is a discovery error with no resources', async () => {
    const apps = doc(grp('apps', ver('v1', [res('deployments')])));
    assert.deepEqual(gvrs((await discover([status(404, 'nope')], [[200, apps]])).discovered), ['apps/v1/deployments']);
    const forbidden = (await discover([[200, CORE]], [status(403, 'forbidden: /apis')])).discovered;
    assert.deepEqual([forbidden.resources, forbidden.discoveryError], [[], 'forbidden: /apis']);
    assert.equal(forbidden.discoveryFailedGroups, null);
    const plain = (await discover([[200, CORE]], [[200, { kind: 'APIGroupList', groups: [] }]])).discovered;
    assert.deepEqual(
      [plain.resources, plain.discoveryError],
      [[], '/apis did not answer aggregated discovery (kind APIGroupList)'],
    );
  });

  it('retries a 503 through send and counts every request in attempts', async () => {
    const { discovered, sent } = await discover([status(503, 'busy'), [200, CORE]], [[200, doc()]]);
    assert.deepEqual([discovered.attempts, sent.length, discovered.discoveryError], [3, 3, null]);
  });

  it('an unparsable group version leaves no resources at all (GroupVersionResources fails)', async () => {
    const odd = doc(grp('x/y', ver('v1', [res('things')])));
    const { discovered } = await discover([[200, CORE]], [[200, odd]]);
    assert.deepEqual(
      [discovered.resources, discovered.groupVersionError],
      [[], 'unexpected GroupVersion string: x/y/v1'],
    );
  });
});
