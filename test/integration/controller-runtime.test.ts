import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { namespacePartitionKey, partitionFor } from '@kcm-bus/runtime/partition/index.ts';
import { busFlags, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);
const PARTITIONS = 3;
const PROBE = join(import.meta.dirname, '../support/probe-controller.ts');

/** probe starts a member of the probe controller's group (see test/support/probe-controller.ts). */
function probe(group: string, mode: 'global' | 'singleton'): Promise<ServiceProcess> {
  return startService(
    'probe-controller',
    [...bus, '--consumer-group', group, '--mutations-topic', `${group}.mutations`],
    { script: PROBE, env: { KCM_BUS_PROBE_MODE: mode } },
  );
}

const cached = (member: ServiceProcess, kind: string): Promise<number> =>
  metricValue(member, 'kcm_bus_cached_objects', { controller: 'probe-controller', kind });
const reconciles = (member: ServiceProcess): Promise<number> =>
  metricValue(member, 'controller_runtime_reconcile_total', { controller: 'probe-controller' });
const deadResults = (member: ServiceProcess): Promise<number> =>
  metricValue(member, 'kcm_bus_dead_letters_total', { topic: MUTATION_TOPICS.results });
const restores = (member: ServiceProcess): Promise<number> =>
  metricValue(member, 'kcm_bus_state_restores_total', { topic: 'kcm.state.pods' });
const SLOW = { timeoutMs: 120_000, intervalMs: 500 } as const;
const items = async (path: string): Promise<number> => ((await kube('GET', path))['items'] as unknown[]).length;

/** namespacesOnEveryPartition picks one new namespace name per partition number. */
function namespacesOnEveryPartition(): string[] {
  const byPartition = new Map<number, string>();
  while (byPartition.size < PARTITIONS) {
    const ns = uniqueName('rt');
    byPartition.set(partitionFor(namespacePartitionKey(`${ns}/x`), PARTITIONS), ns);
  }
  return [...byPartition.values()];
}

describe('the controller runtime on the real stack: global inputs and a single active member', () => {
  before(async () => {
    await startService('watcher', [
      ...bus,
      '--kubeconfig',
      stack.kubeconfigs.watcher,
      '--partitions',
      String(PARTITIONS),
    ]);
    await startService('writer', [
      ...bus,
      '--kubeconfig',
      stack.kubeconfigs.writer,
      '--partitions',
      String(PARTITIONS),
    ]);
  });
  after(stopAllServices);

  it("given two members, then each holds every node (a global input) and only its own partitions' pods, together all of them; each rebalance restores only the partitions that moved", async () => {
    for (let i = 0; i < 3; i++) await kube('POST', '/api/v1/nodes', { metadata: { name: uniqueName('rt-node') } });
    for (const ns of namespacesOnEveryPartition()) {
      await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      await kube('POST', `/api/v1/namespaces/${ns}/pods`, {
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'c', image: 'x' }] },
      });
    }
    const group = uniqueName('kcm-bus-probe');
    const [nodes, pods] = [await items('/api/v1/nodes'), await items('/api/v1/pods')];
    const a = await probe(group, 'global');
    await waitFor('the first member alone holds every pod', async () => (await cached(a, 'pods')) === pods, SLOW);
    const first = await restores(a);
    assert.ok(first >= PARTITIONS, `it restored every partition (${first})`);
    const b = await probe(group, 'global');
    const seen = await waitFor(
      'both members hold every node and the pods add up',
      async () => {
        const figures = [
          await cached(a, 'nodes'),
          await cached(b, 'nodes'),
          await cached(a, 'pods'),
          await cached(b, 'pods'),
        ];
        return figures[0] === nodes && figures[1] === nodes && figures[2]! + figures[3]! === pods ? figures : undefined;
      },
      SLOW,
    );
    assert.ok(
      seen[2]! > 0 && seen[3]! > 0,
      `each member holds some pods, none holds all (${seen[2]} + ${seen[3]} of ${pods})`,
    );
    const owned = await metricValue(a, 'kcm_bus_partitions', { controller: 'probe-controller' });
    assert.equal(await restores(a), first, 'the first member kept the partitions it did not give up: no restore');
    await b.stop();
    await waitFor('the first member holds every pod again', async () => (await cached(a, 'pods')) === pods, SLOW);
    assert.equal(await restores(a), first + PARTITIONS - owned, 'it restored only the partitions that came back');
  });

  it('given results its group read, when a member starts again, then it reads on from there: a bad result is dead-lettered once, not at every start', async () => {
    const key = `${uniqueName('rt-results')}/x`;
    const kafka = kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-test' });
    const partition = partitionFor(namespacePartitionKey(key), (await kafka.offsets(MUTATION_TOPICS.results)).length);
    const garbage = async (): Promise<bigint> => {
      const publisher = await kafka.publisher();
      await publisher
        .send(MUTATION_TOPICS.results, [{ key, value: Buffer.from('not a result'), headers: {} }])
        .finally(() => publisher.close());
      return BigInt((await kafka.offsets(MUTATION_TOPICS.results)).find((p) => p.partition === partition)!.high);
    };
    const committed = async (group: string): Promise<bigint> => {
      const mine = (await kafka.groupOffsets())
        .find((g) => g.groupId === group)
        ?.partitions.find((p) => p.topic === MUTATION_TOPICS.results && p.partition === partition);
      return BigInt(mine?.committed ?? -1);
    };
    const group = uniqueName('kcm-bus-probe-results');
    const first = await probe(group, 'global');
    const end = await garbage();
    // A new group reads the results from their beginning, once; the group's commit past ours says it was read.
    await waitFor('the first member read past the bad result', async () => (await committed(group)) >= end, {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    assert.ok((await deadResults(first)) >= 1);
    await first.stop();
    const again = await probe(group, 'global');
    await garbage();
    // The second bad result is on the partition of the first (one key), after it: a replay would have met both.
    await waitFor(
      'the restarted member dead-letters the second bad result',
      async () => (await deadResults(again)) >= 1,
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    assert.equal(await deadResults(again), 1);
  });

  it('given a singleton group of two, then one member is active; when it is killed (-9), the other takes over', async () => {
    const group = uniqueName('kcm-bus-probe-single');
    const members = [await probe(group, 'singleton'), await probe(group, 'singleton')];
    const active = await waitFor(
      'exactly one member ticking',
      async () => {
        const before = await Promise.all(members.map(reconciles));
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const grew = (await Promise.all(members.map(reconciles))).map((n, i) => n > before[i]!);
        return grew.filter(Boolean).length === 1 ? members[grew.indexOf(true)] : undefined;
      },
      { timeoutMs: 120_000 },
    );
    const standby = members.find((m) => m !== active)!;
    const idle = await reconciles(standby);
    active.process.kill('SIGKILL');
    await active.exited;
    const killedAt = Date.now();
    await waitFor('the standby ticking', async () => (await reconciles(standby)) > idle + 1, {
      timeoutMs: 90_000,
      intervalMs: 200,
    });
    console.log(`singleton takeover after kill -9: ${((Date.now() - killedAt) / 1000).toFixed(1)} s`);
  });
});
