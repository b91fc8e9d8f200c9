import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { history } from '@kcm-bus/tools/history.ts';
import { kindNamed } from '@kcm-bus/tools/object-args.ts';
import { trace } from '@kcm-bus/tools/trace.ts';
import { openScanner } from '@kcm-bus/tools/topic-scan.ts';
import {
  busFlags,
  kafkaFlags,
  rawKube,
  schedulableKwokNode,
  testStack,
  testWriterFlags,
  uniqueName,
} from '../support/stack.ts';
import { startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = busFlags(stack);
const scanner = openScanner(
  { brokers: stack.kafkaBrokers, registry: stack.registry, security: { kafka: {}, registry: {} } },
  'kcm-bus-it-trace',
  () => undefined,
);
const CLI = resolve(import.meta.dirname, '../../packages/stack/bin/kcm-bus.ts');

type Cause = { kind: string; text: string; diff: { path: string; from?: unknown; to?: unknown }[] };
type Step = {
  verb: string;
  controller: string;
  result: { outcome: string; status: number } | null;
  causes: Cause[];
  chain: string;
};

/** run collects what a tool prints, one JSON value a line. */
async function run(tool: typeof trace, kind: string, key: string): Promise<unknown[]> {
  const lines: string[] = [];
  await tool({ kind: kindNamed(kind), key, json: true }, scanner, (line) => void lines.push(line));
  return lines.map((l) => JSON.parse(l) as unknown);
}

describe('kcm-bus history and trace on the real stack: an RC of 3 scaled to 1, reconciler-rc restarted in between', () => {
  const ns = uniqueName('trace');
  const { rcs, pods, running, scale } = rcClient(kube, ns);
  const reconcilerArgs = [...bus, '--redis-url', stack.redis];
  let reconciler: ServiceProcess;
  let deleted: string[] = [];

  before(async () => {
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await schedulableKwokNode(uniqueName('kwok-trace'));
    await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']);
    await startService('writer', testWriterFlags(bus));
    reconciler = await startService('reconciler-rc', reconcilerArgs);
    await kube('POST', rcs, rcManifest('web', 3));
    const created = (await running('web', 3)).map((p) => p.metadata.name);
    // The pods' creates were decided before the restart, their deletes after: trace resolves both.
    await reconciler.stop();
    reconciler = await startService('reconciler-rc', reconcilerArgs);
    await scale('web', 1);
    const left = await waitFor('two pods deleted', async () => {
      const list = await pods('web');
      return list.length === 1 ? list.map((p) => p.metadata.name) : undefined;
    });
    deleted = created.filter((name) => !left.includes(name));
  });
  after(async () => {
    await stopAllServices();
    await kube('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
  });

  it("history shows the RC's versions in order, the first summarized and the scale-down as spec.replicas 3 → 1", async () => {
    const entries = (await run(history, 'rc', `${ns}/web`)) as {
      summary?: string;
      diff: Cause['diff'];
      resourceVersion: string;
    }[];
    assert.match(entries[0]?.summary ?? '', /replicas=3/);
    assert.ok(
      entries.slice(1).some((e) => e.diff.some((d) => d.path === 'spec.replicas' && d.from === 3 && d.to === 1)),
      JSON.stringify(entries),
    );
    const rvs = entries.map((e) => BigInt(e.resourceVersion));
    assert.deepEqual(
      rvs,
      [...rvs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  });

  it('trace of a deleted pod: created and deleted by replicationcontroller-controller, both applied, the delete caused by the RC going from 3 to 1', async () => {
    assert.equal(deleted.length, 2);
    const steps = await waitFor(
      'both mutations with their results',
      async () => {
        const s = (await run(trace, 'pods', `${ns}/${deleted[0]}`)) as Step[];
        return s.some((x) => x.verb === 'Create' && x.result) && s.some((x) => x.verb === 'Delete' && x.result)
          ? s
          : undefined;
      },
      { timeoutMs: 60_000 },
    );
    const del = steps.find((s) => s.verb === 'Delete')!;
    assert.equal(del.controller, 'replicationcontroller-controller');
    assert.deepEqual([del.result?.outcome, del.result?.status], ['Applied', 200]);
    // The cause is the scale-down itself, or whatever last enqueued the RC (a result, a pod) with the RC's wish beside it.
    assert.match(del.chain, /RC \S+\/web (went from 3 to 1 replicas|wanted 1 replicas: it went from 3 to 1 replicas)/);
    assert.match(del.chain, /^deleted by replicationcontroller-controller at .* \(Applied 200\): .*; this pod was /);
    const create = steps.find((s) => s.verb === 'Create')!;
    assert.equal(create.result?.outcome, 'Applied');
    for (const s of [create, del])
      assert.ok(s.causes.length > 0 && s.causes.every((c) => c.kind !== 'unresolved'), s.chain);
  });

  it('the CLI prints the same trace with --json, one object per mutation', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, 'trace', 'pod', `${ns}/${deleted[1]}`, '--json', ...kafkaFlags(stack)],
      { timeout: 120_000 },
    );
    const steps = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Step);
    assert.deepEqual(
      steps.map((s) => s.verb).filter((v) => v === 'Create' || v === 'Delete'),
      ['Create', 'Delete'],
    );
    assert.ok(steps.every((s) => s.controller === 'replicationcontroller-controller'));
  });
});
