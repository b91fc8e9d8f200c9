import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { frame } from '@kcm-bus/runtime/codec/index.ts';
import type { Mutation, MutationTarget } from '@kcm-bus/runtime/mutation/index.ts';
import { signingWith } from '@kcm-bus/runtime/signing/index.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { busFlags, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import {
  mutation,
  mutationSerde,
  outcomeOf,
  ownedNamespace,
  podBody,
  podCreate,
  type PodOwner,
  podTarget,
  produceMutations,
  resultsFor,
} from '@kcm-bus/harness/mutations.ts';
import { readRaw } from '@kcm-bus/harness/topic.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const writerArgs = ['--kubeconfig', stack.kubeconfigs.writer, ...busFlags(stack), '--partitions', '3'];
const exists = async (path: string): Promise<boolean> =>
  kube('GET', path).then(
    () => true,
    () => false,
  );
const uidOf = (o: Record<string, unknown>): string => (o['metadata'] as { uid: string }).uid;
const rvOf = (o: Record<string, unknown>): string => (o['metadata'] as { resourceVersion: string }).resourceVersion;

describe('the writer: the one metered, idempotent path from mutations to the API', () => {
  const ns = uniqueName('wr');
  const pods = `/api/v1/namespaces/${ns}/pods`;
  let writer: ServiceProcess;
  let owner: PodOwner;

  before(async () => {
    owner = await ownedNamespace(kube, ns);
    writer = await startService('writer', writerArgs);
  });
  after(stopAllServices);

  it('applies every verb: Create, Delete, UpdateStatus, Update, Patch and RecordEvent', async () => {
    const rc = await kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, {
      metadata: { name: 'web' },
      spec: {
        replicas: 0,
        selector: { app: 'web' },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      },
    });
    const ep = await kube('POST', `/api/v1/namespaces/${ns}/endpoints`, { metadata: { name: 'web' } });
    const node = await kube('POST', '/api/v1/nodes', { metadata: { name: uniqueName('wr-node') } });
    const victim = await kube('POST', pods, JSON.parse(podBody('victim', owner)));
    const rcTarget: MutationTarget = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      namespace: ns,
      name: 'web',
      resource: 'replicationcontrollers',
      subresource: null,
    };
    const nodeName = (node['metadata'] as { name: string }).name;
    const batch = [
      podCreate(ns, 'created', owner),
      mutation({
        verb: 'Delete',
        target: podTarget(ns, 'victim'),
        preconditions: { uid: uidOf(victim), resourceVersion: null },
      }),
      mutation({
        verb: 'UpdateStatus',
        target: rcTarget,
        reconcileKey: `${ns}/web`,
        preconditions: { uid: null, resourceVersion: rvOf(rc) },
        body: JSON.stringify({ ...rc, status: { replicas: 0, observedGeneration: 1 } }),
      }),
      mutation({
        verb: 'Update',
        controller: 'endpoints-controller',
        reconcileKey: `${ns}/web`,
        target: {
          apiVersion: 'v1',
          kind: 'Endpoints',
          namespace: ns,
          name: 'web',
          resource: 'endpoints',
          subresource: null,
        },
        preconditions: { uid: null, resourceVersion: rvOf(ep) },
        body: JSON.stringify({ ...ep, subsets: [{ addresses: [{ ip: '10.9.0.7' }], ports: [{ port: 80 }] }] }),
      }),
      mutation({
        verb: 'Patch',
        controller: 'node-lifecycle-controller',
        target: {
          apiVersion: 'v1',
          kind: 'Node',
          namespace: null,
          name: nodeName,
          resource: 'nodes',
          subresource: null,
        },
        patchType: 'merge',
        patch: JSON.stringify({ spec: { taints: [{ key: 'kcm-bus/test', effect: 'NoSchedule' }] } }),
      }),
      mutation({
        verb: 'RecordEvent',
        target: { apiVersion: 'v1', kind: 'Event', namespace: ns, name: '', resource: 'events', subresource: null },
        event: {
          type: 'Normal',
          reason: 'SuccessfulCreate',
          message: 'Created pod: created',
          source: { component: 'replication-controller', host: null },
          involvedObject: {
            apiVersion: 'v1',
            kind: 'ReplicationController',
            namespace: ns,
            name: 'web',
            uid: uidOf(rc),
            resourceVersion: null,
            fieldPath: null,
          },
        },
      }),
    ];
    await produceMutations(stack, batch);
    const results = await resultsFor(stack, batch);
    assert.deepEqual(
      batch.map((m) => `${m.verb} ${outcomeOf(results, m)}`),
      batch.map((m) => `${m.verb} Applied`),
    );
    assert.ok(await exists(`${pods}/created`));
    assert.ok(
      !(await exists(`${pods}/victim`)) ||
        ((await kube('GET', `${pods}/victim`))['metadata'] as { deletionTimestamp?: string }).deletionTimestamp,
    );
    assert.equal(
      (
        (await kube('GET', `/api/v1/namespaces/${ns}/replicationcontrollers/web`))['status'] as {
          observedGeneration: number;
        }
      ).observedGeneration,
      1,
    );
    assert.equal(
      ((await kube('GET', `/api/v1/nodes/${nodeName}`))['spec'] as { taints: { key: string }[] }).taints.some(
        (t) => t.key === 'kcm-bus/test',
      ),
      true,
    );
    const events = (await kube('GET', `/api/v1/namespaces/${ns}/events`))['items'] as {
      reason: string;
      count: number;
    }[];
    assert.ok(events.some((e) => e.reason === 'SuccessfulCreate'));
  });

  it('replays a batch without creating, deleting or updating anything twice', async () => {
    const created = await kube('POST', pods, JSON.parse(podBody('to-delete', owner)));
    const rc = await kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, {
      metadata: { name: 'replayed' },
      spec: {
        replicas: 0,
        selector: { app: 'r' },
        template: { metadata: { labels: { app: 'r' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      },
    });
    const batch = [
      podCreate(ns, 'replayed-a', owner),
      podCreate(ns, 'replayed-b', owner),
      mutation({
        verb: 'Delete',
        target: podTarget(ns, 'to-delete'),
        preconditions: { uid: uidOf(created), resourceVersion: null },
        body: JSON.stringify({ gracePeriodSeconds: 0 }),
      }),
      mutation({
        verb: 'UpdateStatus',
        reconcileKey: `${ns}/replayed`,
        target: {
          apiVersion: 'v1',
          kind: 'ReplicationController',
          namespace: ns,
          name: 'replayed',
          resource: 'replicationcontrollers',
          subresource: null,
        },
        preconditions: { uid: null, resourceVersion: rvOf(rc) },
        body: JSON.stringify({ ...rc, status: { replicas: 0, observedGeneration: 1 } }),
      }),
    ];
    await produceMutations(stack, batch);
    await resultsFor(stack, batch);
    await produceMutations(stack, batch);
    const results = await resultsFor(stack, batch, 2);
    assert.deepEqual(
      batch.map((m) => results.get(m.id)?.map((r) => r.outcome)),
      [
        ['Applied', 'AlreadyDone'],
        ['Applied', 'AlreadyDone'],
        ['Applied', 'AlreadyDone'],
        ['Applied', 'Conflict'],
      ],
      'a replayed update meets a newer resourceVersion',
    );
  });

  it('answers a stale precondition with Conflict and leaves the object alone', async () => {
    await kube('POST', pods, JSON.parse(podBody('guarded', owner)));
    const stale = mutation({
      verb: 'Delete',
      target: podTarget(ns, 'guarded'),
      preconditions: { uid: '00000000-0000-0000-0000-000000000000', resourceVersion: null },
    });
    await produceMutations(stack, [stale]);
    assert.equal(outcomeOf(await resultsFor(stack, [stale]), stale), 'Conflict');
    assert.ok(await exists(`${pods}/guarded`));
  });

  it('refuses what the allowlist does not grant, leaving the cluster untouched', async () => {
    const service = mutation({
      verb: 'Create',
      target: {
        apiVersion: 'v1',
        kind: 'Service',
        namespace: ns,
        name: 'sneaky',
        resource: 'services',
        subresource: null,
      },
      body: JSON.stringify({ metadata: { name: 'sneaky' }, spec: { ports: [{ port: 80 }] } }),
    });
    await produceMutations(stack, [service]);
    assert.equal(outcomeOf(await resultsFor(stack, [service]), service), 'Refused');
    assert.ok(!(await exists(`/api/v1/namespaces/${ns}/services/sneaky`)));
  });

  it('refuses a signed Create older than --max-create-age (a replayed record), creating nothing, and applies a fresh one', async () => {
    const stale = podCreate(ns, 'replayed', owner, { createdAt: new Date(Date.now() - 10 * 60_000).toISOString() });
    const fresh = podCreate(ns, 'fresh', owner);
    await produceMutations(stack, [stale, fresh]);
    const results = await resultsFor(stack, [stale, fresh]);
    assert.deepEqual([results.get(stale.id)?.[0]?.reason, outcomeOf(results, fresh)], ['CreateExpired', 'Applied']);
    assert.ok(!(await exists(`${pods}/replayed`)));
  });

  it('sends malformed records to the dead-letter topic with the reason and applies the next good one', async () => {
    const incomplete = mutation({ verb: 'Delete', target: podTarget(ns, 'x') });
    const good = podCreate(ns, 'after-garbage', owner);
    const key = `${ns}/dlq-${uniqueName('k')}`;
    await produceMutations(
      stack,
      [],
      [
        { key, value: Buffer.from('not avro at all') },
        { key, value: frame(987654, Buffer.from([1, 2, 3])) },
      ],
    );
    await produceMutations(stack, [incomplete, good]);
    assert.equal(outcomeOf(await resultsFor(stack, [good]), good), 'Applied');
    const dead = await waitFor('three dead letters', async () => {
      const mine = (await readRaw(stack, MUTATION_TOPICS.deadLetters)).filter(
        (r) => r.key === key || r.key === `${ns}/x`,
      );
      return mine.length >= 3 ? mine : undefined;
    });
    assert.ok(
      dead.every((d) => d.headers['kcm-bus.reason']),
      'each carries its reason',
    );
    assert.ok(
      dead.some((d) => /preconditions\.uid/.test(d.headers['kcm-bus.reason'] ?? '')),
      'the incomplete mutation names the missing part',
    );
  });

  it('obeys only mutations their controller signed: unsigned or signed with another key, they are dead-lettered and counted, nothing applied', async () => {
    const [unsigned, forged, good] = ['unsigned', 'forged', 'signed'].map((name) => podCreate(ns, name, owner));
    const encode = async (m: Mutation): Promise<{ key: string; value: Buffer }> => ({
      key: `${ns}/${m.target.name}`,
      value: (await mutationSerde(stack).encode(m)).bytes,
    });
    const intruder = signingWith({
      name: forged!.controller,
      privateKey: generateKeyPairSync('ed25519').privateKey,
      trusted: new Map(),
    });
    const forgedRecord = await encode(forged!);
    await produceMutations(
      stack,
      [good!],
      [await encode(unsigned!), { ...forgedRecord, headers: intruder.headers(forgedRecord.key, forgedRecord.value) }],
    );
    assert.equal(outcomeOf(await resultsFor(stack, [good!]), good!), 'Applied');
    const dead = await waitFor('two dead letters', async () => {
      const mine = (await readRaw(stack, MUTATION_TOPICS.deadLetters)).filter(
        (r) => r.key === `${ns}/unsigned` || r.key === `${ns}/forged`,
      );
      return mine.length >= 2 ? mine : undefined;
    });
    assert.deepEqual(dead.map((d) => d.headers['kcm-bus.reason']?.replace(/:.*/, '')).sort(), [
      'ForgedRecordError',
      'ForgedRecordError',
    ]);
    assert.match(
      dead.find((d) => d.key === `${ns}/forged`)?.headers['kcm-bus.reason'] ?? '',
      /bad signature of replicationcontroller-controller/,
    );
    assert.ok(!(await exists(`${pods}/unsigned`)) && !(await exists(`${pods}/forged`)), 'neither pod was created');
    assert.ok((await metricValue(writer, 'kcm_bus_dead_letters_total', { topic: MUTATION_TOPICS.mutations })) >= 2);
  });

  it('keeps to --kube-api-qps=5 --kube-api-burst=5: 25 creates take at least 4 seconds', async () => {
    await writer.stop();
    writer = await startService('writer', [...writerArgs, '--kube-api-qps', '5', '--kube-api-burst', '5']);
    const batch = Array.from({ length: 25 }, (_, i) => podCreate(ns, `metered-${i}`, owner));
    const started = Date.now();
    await produceMutations(stack, batch);
    const results = await resultsFor(stack, batch);
    assert.ok(batch.every((m) => outcomeOf(results, m) === 'Applied'));
    assert.ok(Date.now() - started >= 4000, `took ${Date.now() - started} ms`);
  });

  it('after kill -9 mid-batch and a restart, leaves exactly the intended objects', async () => {
    await writer.stop();
    writer = await startService('writer', writerArgs);
    const batch = Array.from({ length: 60 }, (_, i) => podCreate(ns, `crash-${i}`, owner));
    await produceMutations(stack, batch);
    await waitFor('a third of the pods', async () => countPods(/^crash-/).then((n) => n >= 20), { intervalMs: 50 });
    writer.process.kill('SIGKILL');
    await writer.exited;
    writer = await startService('writer', writerArgs);
    await resultsFor(stack, batch);
    assert.equal(await countPods(/^crash-/), 60);
  });

  async function countPods(name: RegExp): Promise<number> {
    const list = (await kube('GET', pods))['items'] as { metadata: { name: string } }[];
    return list.filter((p) => name.test(p.metadata.name)).length;
  }
});
