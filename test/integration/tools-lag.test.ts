import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { busFlags, kafkaFlags, rawKube, schedulableKwokNode, testStack, uniqueName } from '../support/stack.ts';
import { metricValue, startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { inputKindsOf } from '@kcm-bus/catalog/controllers.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);
const CLI = resolve(import.meta.dirname, '../../packages/stack/bin/kcm-bus.ts');
const PARTITIONS = 3;
/** INPUTS are the topics reconciler-rc's group reads: each watched kind's state and history, and the writer's results. */
const KINDS = inputKindsOf('reconciler-rc');
const INPUTS = [...KINDS.flatMap((k) => [`kcm.state.${k}`, `kcm.watch.${k}`]), 'kcm.mutation-results'];

/** kcmBusLag runs `kcm-bus lag` as a user would, against the test stack. */
async function kcmBusLag(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'lag', ...kafkaFlags(stack), ...args], {
    timeout: 120_000,
  });
  return stdout;
}

/** GroupLag is what the test reads of a group in `lag --json`'s report (the tools' GroupLag). */
type GroupLag = {
  readonly service: string;
  readonly group: string;
  readonly members: number;
  readonly partitions: readonly {
    readonly topic: string;
    readonly partition: number;
    readonly lag: number | null;
    readonly watermarkAgeMs: number | null;
  }[];
};

/** rcGroup is reconciler-rc's group in `lag --json`'s report (one group reads the inputs of its RC and ReplicaSet controllers). */
async function rcGroup(): Promise<GroupLag | undefined> {
  return (JSON.parse(await kcmBusLag('--json')) as GroupLag[]).find((g) => g.group === 'kcm-bus-reconciler-rc');
}

describe("kcm-bus lag: the services' consumer groups, their lag and their inputs' watermark age", () => {
  const ns = uniqueName('lag');
  const { running } = rcClient(kube, ns);
  let reconciler: ServiceProcess;

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await schedulableKwokNode(uniqueName('kwok-lag'));
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
    reconciler = await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]);
  });
  after(async () => {
    await stopAllServices();
    await kube('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
  });

  it("lists reconciler-rc's group with every input partition, lag 0 once an RC converged, watermarks seconds old", async () => {
    await kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rcManifest('web', 2));
    await running('web', 2);
    // The history topics are what it reads live: lag 0 there; a state topic is read only to restore, and has no lag.
    const group = await waitFor(
      'reconciler-rc synced: lag 0 on every input partition it committed on',
      async () => {
        const g = await rcGroup();
        const histories = g?.partitions.filter((p) => p.topic.startsWith('kcm.watch.')) ?? [];
        const states = g?.partitions.filter((p) => p.topic.startsWith('kcm.state.')) ?? [];
        return (
          g !== undefined &&
          histories.length === KINDS.length * PARTITIONS &&
          g.partitions.every((p) => p.lag === 0 || p.lag === null) &&
          histories.every((p) => p.lag === 0) &&
          states.every((p) => p.lag === null) &&
          g
        );
      },
      { timeoutMs: 120_000 },
    );
    const listed = group.partitions.map((p) => `${p.topic}/${p.partition}`).sort();
    assert.deepEqual(listed, INPUTS.flatMap((t) => [0, 1, 2].map((p) => `${t}/${p}`)).sort());
    assert.equal(group.service, 'reconciler-rc');
    assert.equal(group.members, 1);
    for (const p of group.partitions.filter((q) => q.topic.startsWith('kcm.watch.'))) {
      // the watcher's default --watermark-idle-interval-ms (5 s) plus transit on a loaded machine
      assert.ok(
        p.watermarkAgeMs !== null && p.watermarkAgeMs < 15_000,
        `${p.topic}/${p.partition}: watermark age ${p.watermarkAgeMs} ms`,
      );
    }
    console.log(await kcmBusLag());
  });

  it('still replays its partitions from the beginning after a restart, though it now commits its position', async () => {
    await reconciler.stop();
    const restarted = await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]);
    // Resumed from the committed offsets, its stores would hold nothing written before: the RC and its two pods.
    assert.ok((await metricValue(restarted, 'kcm_bus_cached_objects', { kind: 'pods' })) >= 2);
    assert.ok((await metricValue(restarted, 'kcm_bus_cached_objects', { kind: 'replicationcontrollers' })) >= 1);
  });
});
