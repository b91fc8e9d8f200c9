import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RETRY_POLICY } from '../backoff.ts';
import type { KubeRequest } from '../request.ts';
import { type ContentDeps, deleteNamespaceContent } from './delete-content.ts';

type Reply = readonly [number, object];
/** Routes answer `METHOD path` requests; n counts the route's earlier requests. Any other request is a 404. */
type Routes = Record<string, (r: KubeRequest, n: number) => Reply>;

const NS = 'team-a';
const NOW = new Date('2026-11-29T08:00:00Z');
const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const NO_COLLECTION = ALL.filter((v) => v !== 'deletecollection');
const META_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const BACKGROUND = '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const CONFIGMAPS = `/api/v1/namespaces/${NS}/configmaps`;
const SECRETS = `/api/v1/namespaces/${NS}/secrets`;
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

const res = (resource: string, verbs = ALL) => ({ resource, scope: 'Namespaced', verbs, responseKind: { kind: 'K' } });
const group = (name: string, resources: object[]) => ({ metadata: { name }, versions: [{ version: 'v1', resources }] });
const aggregated = (...items: object[]): Reply => [200, { kind: 'APIGroupDiscoveryList', items }];
const items = (...objects: object[]): Reply => [200, { kind: 'List', items: objects }];
const meta = (name: string, finalizers: string[] = []) => ({ metadata: { name, finalizers } });
const pod = (grace: number, phase = 'Running') => ({
  spec: { terminationGracePeriodSeconds: grace },
  status: { phase },
});
const status = (code: number, message: string): Reply => [code, { kind: 'Status', code, message }];
const OK: Reply = [200, { kind: 'Status', status: 'Success' }];

/** discovery serves pods, configmaps (no deletecollection) and secrets in core, deployments in apps. */
const discovery: Routes = {
  'GET /api': () =>
    aggregated(group('', [res('pods'), res('configmaps', NO_COLLECTION), res('secrets'), res('nodes/proxy')])),
  'GET /apis': () => aggregated(group('apps', [res('deployments')])),
};
/** emptied answers a resource's collection: deletecollection succeeds, then its lists find these (or nothing). */
const emptied = (path: string, ...left: object[]): Routes => ({
  [`DELETE ${path}`]: () => OK,
  [`GET ${path}`]: () => items(...left),
});
const podsGone = emptied(PODS);

/** run runs one pass, deleted `agoMs` before NOW, against the routes; it returns the result and the requests sent. */
async function run(routes: Routes, agoMs = 1000) {
  const sent: KubeRequest[] = [];
  const deps: ContentDeps = {
    api: {
      send: async (r) => {
        const key = `${r.method} ${r.path}`;
        const n = sent.filter((s) => `${s.method} ${s.path}` === key).length;
        sent.push(r);
        const [code, body] = routes[key]?.(r, n) ?? status(404, 'not found');
        return { type: 'Response', status: code, retryAfter: null, body: JSON.stringify(body) };
      },
    },
    budget: { acquire: async () => {} },
    scheduler: { setTimeout: (fn) => queueMicrotask(fn), clearTimeout: () => {} },
    random: () => 0,
    policy: DEFAULT_RETRY_POLICY,
    clock: () => NOW,
  };
  const result = await deleteNamespaceContent(NS, new Date(NOW.getTime() - agoMs), 'namespace-controller', deps);
  const lines = sent.map((r) => `${r.method} ${r.path}`);
  return { ...result, sent, lines };
}

/** podsLeft: the pods list finds these pods, deletecollection succeeds, the metadata list finds pod p1 left. */
const podsLeft = (...pods: object[]): Routes => ({
  [`DELETE ${PODS}`]: () => OK,
  [`GET ${PODS}`]: (r) => (r.headers['Accept'] === META_ACCEPT ? items(meta('p1')) : items(...pods)),
});

describe('deleteNamespaceContent (namespacedResourcesDeleter.deleteAllContent)', () => {
  it('deletes pods first and, while pods remain, touches no other resource; the estimate is the longest grace period', async () => {
    const { report, lines, sent } = await run({ ...discovery, ...podsLeft(pod(30), pod(10), pod(90, 'Failed')) }, 5000);
    assert.deepEqual(lines, ['GET /api', 'GET /apis', `GET ${PODS}`, `DELETE ${PODS}`, `GET ${PODS}`]);
    assert.deepEqual(
      sent.slice(2).map((r) => [r.headers['Accept'], r.headers['Content-Type'], r.body]),
      [
        ['application/json', undefined, null],
        ['application/json', 'application/json', BACKGROUND],
        [META_ACCEPT, undefined, null],
      ],
    );
    assert.equal(report.estimateSeconds, 30);
    assert.deepEqual(report.remaining, [{ resource: 'pods', group: '', count: 1 }]);
    assert.deepEqual(report.deleteContentErrors, []);
  });

  it('estimates 0 once the grace period has passed since deletion: pods left then are unexpected, and still stop the pass', async () => {
    const justBefore = await run({ ...discovery, ...podsLeft(pod(30)) }, 29_999);
    assert.deepEqual([justBefore.report.estimateSeconds, justBefore.report.deleteContentErrors], [30, []]);
    const after = await run({ ...discovery, ...podsLeft(pod(30)) }, 30_000);
    assert.equal(after.report.estimateSeconds, 0);
    assert.deepEqual(after.report.deleteContentErrors, [
      'unexpected items still remain in namespace: team-a for gvr: /v1, Resource=pods',
    ]);
    assert.deepEqual(after.lines, ['GET /api', 'GET /apis', `GET ${PODS}`, `DELETE ${PODS}`, `GET ${PODS}`]);
  });

  it('without deletecollection in discovery, lists and deletes each item in the background, then lists again', async () => {
    const configmaps: Routes = {
      [`GET ${CONFIGMAPS}`]: (_, n) => (n === 0 ? items(meta('a'), meta('b')) : items()),
      [`DELETE ${CONFIGMAPS}/a`]: () => OK,
      [`DELETE ${CONFIGMAPS}/b`]: () => status(404, 'gone'),
    };
    const { report, lines, sent } = await run({ ...discovery, ...podsGone, ...configmaps, ...emptied(SECRETS) });
    assert.deepEqual(
      lines.filter((l) => l.includes('/configmaps')),
      [`GET ${CONFIGMAPS}`, `DELETE ${CONFIGMAPS}/a`, `DELETE ${CONFIGMAPS}/b`, `GET ${CONFIGMAPS}`],
    );
    assert.deepEqual(sent.find((r) => r.path === `${CONFIGMAPS}/a`)?.body, BACKGROUND);
    const { estimateSeconds, remaining, finalizers, deleteContentErrors, ...discovered } = report;
    assert.deepEqual([estimateSeconds, remaining, finalizers, deleteContentErrors], [0, [], [], []]);
    assert.deepEqual(Object.values(discovered), [null, null, null]);
  });

  it('falls back to deleting each item when deletecollection answers 405 or 404', async () => {
    for (const code of [405, 404]) {
      const deployments: Routes = {
        [`DELETE ${DEPLOYMENTS}`]: () => status(code, 'the server does not allow this method'),
        [`GET ${DEPLOYMENTS}`]: (_, n) => (n === 0 ? items(meta('web')) : items()),
        [`DELETE ${DEPLOYMENTS}/web`]: () => OK,
      };
      const { report, lines } = await run({ ...discovery, ...podsGone, ...deployments });
      assert.ok(lines.includes(`DELETE ${DEPLOYMENTS}/web`), `${code}: ${lines.join(', ')}`);
      assert.deepEqual(report.deleteContentErrors, []);
    }
  });

  it('counts what finalizers hold, per resource and per finalizer, and estimates 15 s', async () => {
    const held = [meta('a', ['x.io/f']), meta('b', ['x.io/f', 'y.io/g'])];
    const routes = {
      ...discovery,
      ...podsGone,
      ...emptied(SECRETS, ...held),
      ...emptied(DEPLOYMENTS, meta('w', ['x.io/f'])),
    };
    const { report } = await run(routes);
    assert.equal(report.estimateSeconds, 15);
    assert.deepEqual(
      [...report.remaining].sort((a, b) => a.resource.localeCompare(b.resource)),
      [
        { resource: 'deployments', group: 'apps', count: 1 },
        { resource: 'secrets', group: '', count: 2 },
      ],
    );
    assert.deepEqual(
      [...report.finalizers].sort((a, b) => a.finalizer.localeCompare(b.finalizer)),
      [
        { finalizer: 'x.io/f', count: 3 },
        { finalizer: 'y.io/g', count: 1 },
      ],
    );
    assert.deepEqual(report.deleteContentErrors, []);
  });

  it('items left without finalizers and no estimate are the "unexpected items" error, and the pass goes on', async () => {
    const { report, lines } = await run({
      ...discovery,
      ...podsGone,
      ...emptied(DEPLOYMENTS, meta('web')),
      ...emptied(SECRETS),
    });
    assert.deepEqual(report.deleteContentErrors, [
      'unexpected items still remain in namespace: team-a for gvr: apps/v1, Resource=deployments',
    ]);
    assert.deepEqual(
      [report.estimateSeconds, report.remaining],
      [0, [{ resource: 'deployments', group: 'apps', count: 1 }]],
    );
    assert.ok(lines.includes(`DELETE ${SECRETS}`));
  });

  it("a failed deletecollection is the resource's error (the Status message): it is not listed, the others are", async () => {
    const routes = { ...discovery, ...podsGone, [`DELETE ${SECRETS}`]: () => status(403, 'secrets is forbidden') };
    const { report, lines } = await run({ ...routes, ...emptied(DEPLOYMENTS) });
    assert.deepEqual(report.deleteContentErrors, ['secrets is forbidden']);
    assert.ok(!lines.includes(`GET ${SECRETS}`));
    assert.ok(lines.includes(`GET ${DEPLOYMENTS}`));
  });

  it("a failed pods list for the estimate is pods' error: pods are not deleted, and the other resources are", async () => {
    const { report, lines } = await run({ ...discovery, [`GET ${PODS}`]: () => status(403, 'pods is forbidden') });
    assert.deepEqual(report.deleteContentErrors, ['pods is forbidden']);
    assert.ok(!lines.includes(`DELETE ${PODS}`));
    assert.ok(lines.includes(`DELETE ${SECRETS}`));
  });

  it('attempts counts every request sent, retries included, and the report carries the discovery error', async () => {
    const stale = { metadata: { name: 'metrics.k8s.io' }, versions: [{ version: 'v1beta1', freshness: 'Stale' }] };
    const routes: Routes = {
      ...discovery,
      'GET /apis': () => aggregated(stale),
      ...podsGone,
      [`DELETE ${PODS}`]: (_, n) => (n === 0 ? status(503, 'busy') : OK),
    };
    const { attempts, sent, report } = await run(routes);
    assert.equal(sent.filter((r) => r.method === 'DELETE' && r.path === PODS).length, 2);
    assert.equal(attempts, sent.length);
    assert.equal(report.discoveryFailedGroups, 1);
    assert.equal(
      report.discoveryError,
      'unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
    );
  });
});
