import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import { deadLetterTopic } from '@kcm-bus/runtime/faults/index.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import { kindOfTopic } from '@kcm-bus/schemas/kinds.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { readyIPs, type EndpointsObject } from '@kcm-bus/harness/endpoints.ts';
import { fuzzRecords, seeded, type FuzzKind } from '../support/fuzz.ts';
import { mutation, podTarget } from '@kcm-bus/harness/mutations.ts';
import { startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { busFlags, rawKube, schedulableKwokNode, testStack, testWriterFlags, uniqueName } from '../support/stack.ts';
import { readRaw } from '@kcm-bus/harness/topic.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);
const SEED = Number(process.env['KCM_BUS_FUZZ_SEED'] ?? 20261123);
const PER_TOPIC = 36;
/** HISTORY_TOPICS are read live (the poison is dead-lettered at once); STATE_TOPICS when a member restores from them. */
const HISTORY_TOPICS = [
  'kcm.watch.pods',
  'kcm.watch.replicationcontrollers',
  'kcm.watch.services',
  'kcm.watch.endpoints',
  'kcm.watch.namespaces',
  'kcm.watch.serviceaccounts',
  'kcm.watch.configmaps',
  'kcm.watch.secrets',
];
const STATE_TOPICS = ['kcm.state.pods', 'kcm.state.replicationcontrollers'];

/** serdeOf is the writer serde of a topic: its watch or mutation schema. */
function serdeOf(topic: string): Serde {
  const schemas = loadMutationSchemas();
  const schema =
    topic === MUTATION_TOPICS.mutations
      ? schemas.mutation
      : topic === MUTATION_TOPICS.results
        ? schemas.result
        : loadWatchSchema(kindOfTopic(topic));
  return new Serde(httpSchemaRegistry(stack.registry), topic, schema, (s) => new AvroCodec(s));
}

/** samples are a valid value of each topic and values that decode but are absurd, all in namespace ns. */
function samples(topic: string, ns: string): { valid: unknown; absurd: unknown[] } {
  const meta = { name: 'p', namespace: ns, uid: 'u', resourceVersion: '7' };
  const record = (object: unknown, key = `${ns}/p`, type = 'Applied') => ({
    type,
    key,
    resourceVersion: '7',
    observedAt: new Date().toISOString(),
    object,
  });
  if (topic === MUTATION_TOPICS.mutations) {
    const m = mutation({ verb: 'Create', target: podTarget(ns, ''), body: '{}' });
    return {
      valid: m,
      absurd: [
        { ...m, verb: 'Delete', target: podTarget(ns, 'x'), body: '{not json' },
        { ...m, verb: 'Explode' },
        { ...m, target: podTarget('', '..') },
        { ...m, body: 'x'.repeat(5000) },
      ],
    };
  }
  if (topic === MUTATION_TOPICS.results) {
    const r = {
      mutationId: 'm',
      controller: 'replicationcontroller-controller',
      verb: 'Create',
      target: podTarget(ns, ''),
      outcome: 'Failed',
      status: 500,
      reason: null,
      message: 'x',
      name: null,
      resourceVersion: null,
      uid: null,
      attempts: 1,
      appliedAt: 'yesterday',
      reconcileKey: `${ns}/none`,
    };
    return {
      valid: r,
      absurd: [
        { ...r, outcome: 'Unheard-of' },
        { ...r, verb: 'Delete', reconcileKey: null },
        { ...r, status: -1, attempts: -5 },
      ],
    };
  }
  return {
    valid: record({ metadata: meta }),
    absurd: [
      record({ metadata: { ...meta, name: 'other' } }),
      record(null, `${ns}/q`, 'Deleted'),
      record({ metadata: { ...meta, name: 'p', resourceVersion: 'abc' }, status: { phase: 'Exploding' } }),
    ],
  };
}

/** deadLetters counts the records of the fuzz namespace a topic's dead-letter topic holds, by consumer. */
async function deadLetters(topic: string, ns: string): Promise<number> {
  return (await readRaw(stack, deadLetterTopic(topic)).catch(() => [])).filter((r) => r.key.startsWith(`${ns}/`))
    .length;
}

describe('fuzz: no record on any topic stops a consumer, and the system converges afterwards', () => {
  const fuzzNs = uniqueName('fuzz');
  const ns = uniqueName('after-fuzz');
  const node = uniqueName('kwok-fuzz');
  const services: ServiceProcess[] = [];

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await schedulableKwokNode(node);
    services.push(
      await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']),
    );
    services.push(await startService('writer', testWriterFlags(bus)));
    services.push(await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]));
    services.push(await startService('reconciler-endpoint', bus));
    services.push(await startService('reconciler-namespace', [...bus, '--root-ca-file', stack.caFile]));
  });
  after(stopAllServices);

  it(`given ${PER_TOPIC} bad records on each input topic (seed ${SEED}), then every consumer lives, poison is dead-lettered, and an RC and its Service converge`, async () => {
    const r = seeded(SEED);
    const publisher = await kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-fuzz' }).publisher();
    const tried: Record<string, Record<FuzzKind, number>> = {};
    for (const topic of [...HISTORY_TOPICS, ...STATE_TOPICS, MUTATION_TOPICS.mutations, MUTATION_TOPICS.results]) {
      const serde = serdeOf(topic);
      const { valid, absurd } = samples(topic, fuzzNs);
      const records = fuzzRecords(
        r,
        PER_TOPIC,
        (await serde.encode(valid)).bytes,
        await Promise.all(absurd.map(async (a) => (await serde.encode(a)).bytes)),
        fuzzNs,
      );
      for (const { record } of records) await publisher.send(topic, [record]);
      tried[topic] = Object.fromEntries(
        ['random-bytes', 'wrong-magic', 'unknown-schema', 'truncated', 'huge', 'absurd'].map((k) => [
          k,
          records.filter((x) => x.kind === k).length,
        ]),
      ) as Record<FuzzKind, number>;
    }
    await publisher.close();
    const rc = rcClient(kube, ns);
    await rc.create(rcManifest('web', 3));
    await kube('POST', `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
    });
    await rc.running('web', 3);
    await waitFor(
      '3 ready addresses',
      async () =>
        readyIPs(
          (await kube('GET', `/api/v1/namespaces/${ns}/endpoints/web`).catch(() => undefined)) as
            EndpointsObject | undefined,
        ).length === 3,
      { timeoutMs: 180_000 },
    );
    const exited = services.map((s) => s.process.exitCode !== null || s.process.signalCode !== null);
    assert.deepEqual(
      exited,
      services.map(() => false),
      'no service exited',
    );
    const counts = await Promise.all(
      Object.keys(tried)
        .filter((t) => !STATE_TOPICS.includes(t))
        .map(async (topic) => ({ topic, tried: PER_TOPIC, deadLettered: await deadLetters(topic, fuzzNs) })),
    );
    console.log(
      `fuzz (seed ${SEED}):\n${counts.map((c) => `  ${c.topic}: ${c.tried} tried, ${c.deadLettered} dead letters (all consumers), crashes 0`).join('\n')}`,
    );
    for (const c of counts)
      assert.ok(
        c.deadLettered >= PER_TOPIC / 2,
        `${c.topic}: the undecodable records were dead-lettered (${c.deadLettered})`,
      );
    const forged = (await readRaw(stack, deadLetterTopic(MUTATION_TOPICS.results))).filter(
      (d) => d.key.startsWith(`${fuzzNs}/`) && d.headers['kcm-bus.reason']?.startsWith('ForgedRecordError: unsigned'),
    );
    assert.ok(forged.length > 0, 'a result the writer did not sign is refused as forged, however well it decodes');
  });

  it('given the poison still in the state topics, when the watcher and reconciler-rc restart and replay them, then they become ready again', async () => {
    for (const name of ['watcher', 'reconciler-rc'] as const) {
      const old = services.find((s) => s.logFile.includes(`kcm-bus-${name}-`));
      await old?.stop();
      const args =
        name === 'watcher'
          ? [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']
          : [...bus, '--redis-url', stack.redis];
      services.push(await startService(name, args));
    }
    await rcClient(kube, ns).scale('web', 4);
    await rcClient(kube, ns).running('web', 4);
    for (const topic of STATE_TOPICS) {
      const deadLettered = await waitFor(`${topic}'s poison dead-lettered by the restored reconciler-rc`, async () => {
        const n = await deadLetters(topic, fuzzNs);
        return n >= PER_TOPIC / 2 ? n : undefined;
      });
      console.log(`  ${topic}: ${PER_TOPIC} tried, ${deadLettered} dead letters when restored`);
    }
  });
});
