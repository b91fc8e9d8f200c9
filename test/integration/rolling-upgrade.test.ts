/**
 * A rolling upgrade of the services onto a schema change (issue 47 item 3). The next version is this checkout with
 * one optional field added to the pods' watch schema (PodSpec.upgradeProbe, a string or null, default null: what a
 * newer Kubernetes adding a field to PodSpec makes the generator write). A watcher, a writer and two reconciler-rc
 * members run the version of now while an RC scales; they are restarted onto the next version one at a time, the RC
 * scaling between restarts. Then: the watcher's registration of the new schema passed the subject's BACKWARD rule
 * (and the registry refuses a change that rule forbids), the pods' topic holds records of both schemas, nothing was
 * dead-lettered, no pod was over-created or lost, and trace still explains a pod created before the upgrade.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { DEAD_LETTER_HEADERS } from '@kcm-bus/runtime/faults/index.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import { nextVersion, type NextVersion } from '@kcm-bus/harness/next-version.ts';
import { startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { ownedCounter, rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { busFlags, rawKube, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { podTrace } from '../support/trace.ts';

const stack = testStack();
const kube = rawKube();
const bus = kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-test-upgrade' });
const flags = busFlags(stack);
const PODS_TOPIC = 'kcm.watch.pods';
const SUBJECT = `${PODS_TOPIC}-value`;

/** withProbeField adds PodSpec.upgradeProbe (optional) to the pods' watch schema of a copy of the checkout. */
function withProbeField(root: string): void {
  const file = join(root, 'schemas', 'watch', 'pods.avsc');
  writeFileSync(file, JSON.stringify(addField(JSON.parse(readFileSync(file, 'utf8')) as unknown)));
}

/** addField walks a schema and gives the record named *.PodSpec the optional field upgradeProbe. */
function addField(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(addField);
  if (node === null || typeof node !== 'object') return node;
  const o = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, addField(v)])) as Record<string, unknown>;
  if (o['type'] === 'record' && String(o['name']).endsWith('PodSpec'))
    o['fields'] = [...(o['fields'] as unknown[]), { name: 'upgradeProbe', type: ['null', 'string'], default: null }];
  return o;
}

/** sourceMarks are the high-water marks of every partition of every topic a dead letter can come from, now. */
async function sourceMarks(): Promise<Map<string, bigint>> {
  const topics = (await bus.topics()).filter((t) => t.startsWith('kcm.') && !t.endsWith('.dlq'));
  const marks = (
    await Promise.all(topics.map(async (t) => (await bus.offsets(t)).map((p) => ({ ...p, topic: t }))))
  ).flat();
  return new Map(marks.map((p) => [`${p.topic}/${p.partition}`, BigInt(p.high)]));
}

/**
 * deadLettersSince lists the dead letters of records written after `marks` were taken (their source offset, in the
 * dead letter's headers, at or past its partition's mark), with their reasons: records of earlier tests (a fuzz
 * test's forged ones) are dead-lettered again by every member that restores past them, and are not this test's.
 */
async function deadLettersSince(marks: ReadonlyMap<string, bigint>): Promise<string[]> {
  const found: string[] = [];
  for (const topic of (await bus.topics()).filter((t) => t.endsWith('.dlq')))
    await bus.readToEnd(topic, (r) => {
      const [source, partition, offset] = (r.headers[DEAD_LETTER_HEADERS.source] ?? '').split('/');
      const mark = marks.get(`${source}/${partition}`) ?? 0n;
      if (offset !== undefined && BigInt(offset) >= mark)
        found.push(`${topic}: ${r.headers[DEAD_LETTER_HEADERS.reason]}`);
    });
  return found;
}

/** schemaIdsOf are the registry ids of the records the pods' topic holds for a namespace's pods (wire format bytes 1-4). */
async function schemaIdsOf(ns: string): Promise<Set<number>> {
  const ids = new Set<number>();
  await bus.readToEnd(PODS_TOPIC, (r) => {
    if (r.key?.toString().startsWith(`${ns}/`) && r.value && r.value.length > 5) ids.add(r.value.readInt32BE(1));
  });
  return ids;
}

describe('a rolling upgrade of the services onto a new optional field of the pods schema, while an RC scales', () => {
  const ns = uniqueName('upgrade');
  const client = rcClient(kube, ns);
  const reconcilerArgs = [...flags, '--redis-url', stack.redis];
  const args: Record<string, readonly string[]> = {
    watcher: [...flags, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3'],
    writer: testWriterFlags(flags),
    'reconciler-rc': reconcilerArgs,
  };
  let next: NextVersion;
  let marks = new Map<string, bigint>();
  let firstPod = '';
  /** phases are the scalings: the most pods the RC owned while going to each target, and the bound of that way. */
  const phases: { target: number; bound: number; most: number }[] = [];

  /** onNext stops a running service and starts its next version in its place. */
  const onNext = async (old: ServiceProcess, name: string): Promise<ServiceProcess> => {
    await old.stop();
    return startService(name, args[name] ?? [], { script: next.script(name) });
  };
  /**
   * way scales the RC to n (but the first way: its creation), runs `meanwhile` (a restart onto the next version),
   * and waits until the RC owns n pods and says so in its status, counting what it owns every 100 ms throughout:
   * the most it owned on the way is recorded, with the way's bound (its larger end).
   */
  const way = async (uid: string, n: number, meanwhile: () => Promise<unknown> = async () => undefined) => {
    const owned = ownedCounter(client, 'web', uid);
    const poll = setInterval(() => void owned.count().catch(() => undefined), 100);
    try {
      if (phases.length > 0) await client.scale('web', n);
      await meanwhile();
      await waitFor(`${n} pods of web, in its status`, async () => {
        const status = (await kube('GET', `${client.rcs}/web`))['status'] as { replicas?: number };
        return (await owned.count()) === n && (status.replicas ?? 0) === n;
      });
    } finally {
      clearInterval(poll);
    }
    phases.push({ target: n, bound: Math.max(n, phases.at(-1)?.target ?? 0), most: owned.most() });
  };

  before(async () => {
    next = nextVersion(withProbeField);
    marks = await sourceMarks();
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    const watcher = await startService('watcher', args['watcher'] ?? []);
    const writer = await startService('writer', args['writer'] ?? []);
    const members = [
      await startService('reconciler-rc', reconcilerArgs),
      await startService('reconciler-rc', reconcilerArgs),
    ];
    const { uid } = (await kube('POST', client.rcs, rcManifest('web', 20)))['metadata'] as { uid: string };
    await way(uid, 20);
    firstPod = (await client.pods('web'))[0]?.metadata.name ?? '';
    await way(uid, 40, () => onNext(watcher, 'watcher'));
    await way(uid, 10, () => onNext(members[0] as ServiceProcess, 'reconciler-rc'));
    await way(uid, 30, async () => {
      await onNext(members[1] as ServiceProcess, 'reconciler-rc');
      await onNext(writer, 'writer');
    });
  });
  after(async () => {
    await stopAllServices();
    await kube('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
    next?.remove();
  });

  it('over-created no pod and lost none: each way stayed within its ends and reached its target', () => {
    assert.deepEqual(
      phases.map((p) => p.target),
      [20, 40, 10, 30],
    );
    for (const p of phases) assert.ok(p.most <= p.bound, JSON.stringify(phases));
  });

  it("wrote the namespace's pods with both schemas, the next version's registered under the subject's BACKWARD rule", async () => {
    const ids = await schemaIdsOf(ns);
    assert.ok(ids.size >= 2, `schema ids of the namespace's pod records: ${[...ids]}`);
  });

  it('dead-lettered nothing: every reader of either version decoded every record of either schema', async () => {
    assert.deepEqual(await deadLettersSince(marks), []);
  });

  it('the registry refuses a change the BACKWARD rule forbids: a new field without a default', async () => {
    const registry = httpSchemaRegistry(stack.registry);
    const schema = JSON.parse(readFileSync(join(next.root, 'schemas', 'watch', 'pods.avsc'), 'utf8')) as {
      fields: unknown[];
    };
    const breaking = { ...schema, fields: [...schema.fields, { name: 'mandatory', type: 'string' }] };
    await assert.rejects(
      registry.register(SUBJECT, breaking),
      (err: Error & { status?: number }) => err.status === 409,
    );
  });

  it('trace explains a pod created before the upgrade, from records of the old schema', async () => {
    const steps = await podTrace(stack, `${ns}/${firstPod}`, 'kcm-bus-it-upgrade-trace');
    const create = steps.find((s) => s.verb === 'Create');
    assert.equal(create?.controller, 'replicationcontroller-controller', JSON.stringify(steps));
    assert.ok(create?.result, 'its result is on the topics too');
  });
});
