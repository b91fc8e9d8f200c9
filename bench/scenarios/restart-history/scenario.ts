/**
 * S12, restart in O(live state) (issue 12): the same live pods (BENCH_S12_PODS, default 10,000, in RCs of 50, never
 * scheduled, so nothing else writes them) first with a short history, then with one UPDATES times longer: UPDATES
 * annotation PATCHes per pod through the API, which the bench's watcher turns into records of kcm.watch.pods (the
 * history) and kcm.state.pods (compacted). With each history, REPEATS times (the median is printed):
 * - a fresh reconciler-rc member (a consumer group of its own, mutations to a throwaway topic: it acts on nothing),
 *   from its start until it owns every partition, each synced to its high-water mark (WaitForCacheSync);
 * - the watcher stopped and started again, to /readyz 200 (it restores from its state topics, then lists);
 * - upstream kube-controller-manager (replicationcontroller-controller only), from its start to "Caches are synced":
 *   its informers relist, so its cost follows the live objects, whatever the history (the yardstick).
 * Before the long-history runs the state topic must have been compacted: the bench waits (COMPACTED_WITHIN_MS) until
 * it holds at most COMPACT_ENOUGH records per key, and says so when it does not. Both pods topics' records are
 * counted before each kcm-bus system's runs (topic-records.ts).
 */
import { readFileSync } from 'node:fs';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import type { Bus } from '@kcm-bus/runtime/bus/index.ts';
import { startService } from '@kcm-bus/harness/processes.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { Population, spreadNamespaces, watchPartitions } from '../../lib/population.ts';
import { childPid, RC_METRICS, scrape, terminate } from '../../lib/probes.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';
import { knob, numberKnob } from '../../lib/knobs.ts';
import { restartRows, type Compaction, type Phase, type Run } from './restart-rows.ts';
import { reconcilerFlags, watcherFlags, withThrowawayTopic, writerFlags, type Qps } from '../../lib/systems.ts';
import { podRecords, POD_TOPICS } from './topic-records.ts';

const PODS_KNOB = knob('BENCH_S12_PODS', '10000', 'live pods (RCs of 50, never scheduled)');
const REPEATS_KNOB = knob('BENCH_S12_REPEATS', '3', 'runs of each system with each history; the median is printed');
const PODS = numberKnob(PODS_KNOB);
const REPEATS = numberKnob(REPEATS_KNOB);
const UPDATES = 20;
const PER_RC = 50;
const QPS: Qps = { qps: 1000, burst: 1000 };
const ANNOTATION = 'bench.kcm-bus.io/s12-update';
const COMPACTED_WITHIN_MS = 600_000;
/** COMPACT_ENOUGH: state records per key that count as compacted (one each, plus the active segment's tail). */
const COMPACT_ENOUGH = 1.5;
const WATCHER_MAIN = 'services/watcher/src/main.ts';

/** Watcher is the running watcher: the bench's own at first, then the one this scenario last started. */
type Watcher = { current: { readonly stop: () => Promise<unknown> } };

const since = (t: number): number => (performance.now() - t) / 1000;

/**
 * freshReconciler times a reconciler-rc member of a new consumer group from its start until it owns and synced every
 * partition (its /metrics; /readyz alone answers 200 before the first assignment, when it owns none), and reads the
 * pods it cached then.
 */
async function freshReconciler(ctx: BenchContext, topic: string, tag: string, partitions: number): Promise<Run> {
  const flags = [
    ...reconcilerFlags(ctx.e),
    '--consumer-group',
    `kcm-bus-s12-${tag}`,
    '--mutations-topic',
    topic,
    '--expectations-prefix',
    `kcm-bus:s12-${tag}`,
  ];
  const started = performance.now();
  const member = await startService('reconciler-rc', flags);
  try {
    const cached = await waitFor(
      `reconciler-rc to sync its ${partitions} partitions (log: ${member.logFile})`,
      async () => {
        const m = await scrape(member.metricsUrl);
        const synced =
          m('kcm_bus_partitions', { ...RC_METRICS, state: 'synced' }) === partitions &&
          m('kcm_bus_partitions', { ...RC_METRICS, state: 'syncing' }) === 0;
        return synced && { pods: m('kcm_bus_cached_objects', { ...RC_METRICS, kind: 'pods' }) };
      },
      { intervalMs: 50 },
    );
    return { seconds: since(started), read: cached.pods };
  } finally {
    await member.stop();
  }
}

/** restoredPods is the number of kcm.state.pods records a watcher logged it restored from. */
function restoredPods(logFile: string): number {
  const lines = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"msg":"restored"'));
  const pods = lines.map((l) => JSON.parse(l) as { kind?: string; records?: number }).find((l) => l.kind === 'Pod');
  return pods?.records ?? Number.NaN;
}

/** restartWatcher stops the running watcher and times a new one from its start to /readyz 200. */
async function restartWatcher(ctx: BenchContext, watcher: Watcher): Promise<Run> {
  await watcher.current.stop();
  const started = performance.now();
  const next = await startService('watcher', watcherFlags(ctx.e));
  const seconds = since(started);
  watcher.current = next;
  return { seconds, read: restoredPods(next.logFile) };
}

/** upstreamSynced times kube-controller-manager from its start to its informers' "Caches are synced". */
async function upstreamSynced(ctx: BenchContext): Promise<Run> {
  const started = performance.now();
  const kcm = startUpstream(ctx.e, QPS);
  try {
    await waitFor(
      `kube-controller-manager caches synced (log: ${kcm.logFile})`,
      () => readFileSync(kcm.logFile, 'utf8').includes('"Caches are synced"'),
      { intervalMs: 50 },
    );
    return { seconds: since(started) };
  } finally {
    await kcm.stop();
  }
}

async function repeat(fn: (i: number) => Promise<Run>): Promise<Run[]> {
  const runs: Run[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await fn(i));
  return runs;
}

/** measure times the three systems with the history as it is, counting the pods topics' records before each kcm-bus system. */
async function measure(
  ctx: BenchContext,
  bus: Bus,
  topic: string,
  partitions: number,
  history: Phase['history'],
  watcher: Watcher,
): Promise<Phase> {
  ctx.log(`S12 ${history} history: fresh reconciler-rc members`);
  const atReconciler = await podRecords(bus);
  const reconciler = await repeat((i) => freshReconciler(ctx, topic, `${ctx.runId}-${history}-${i}`, partitions));
  ctx.log(`S12 ${history} history: watcher restarts`);
  const atWatcher = await podRecords(bus);
  const restarts = await repeat(() => restartWatcher(ctx, watcher));
  ctx.log(`S12 ${history} history: upstream kube-controller-manager`);
  const upstream = await repeat(() => upstreamSynced(ctx));
  return {
    history,
    counts: { reconciler: atReconciler, watcher: atWatcher },
    runs: { reconciler, watcher: restarts, upstream },
  };
}

/** lengthen PATCHes every pod UPDATES times, one round over all pods after the other. */
async function lengthen(ctx: BenchContext, pop: Population): Promise<void> {
  const started = performance.now();
  for (let i = 1; i <= UPDATES; i++) {
    await pop.annotate(ANNOTATION, String(i));
    ctx.log(
      `S12: update ${i}/${UPDATES} of ${pop.pods} pods done, ${((i * pop.pods) / since(started)).toFixed(0)} PATCH/s`,
    );
  }
}

/**
 * compaction waits until the watcher published every update (the history stopped growing but for watermarks) and the
 * state topic holds at most COMPACT_ENOUGH records per key, or the deadline passed (compacted: false).
 */
async function compaction(ctx: BenchContext, bus: Bus): Promise<Compaction> {
  const started = performance.now();
  const before = await podRecords(bus);
  let last = before,
    previous = before.history.objects - 1;
  while (since(started) * 1000 < COMPACTED_WITHIN_MS) {
    const compacted = last.history.objects === previous && last.state.objects <= COMPACT_ENOUGH * last.state.keys;
    if (compacted) return { compacted, seconds: since(started), before, after: last };
    ctx.log(
      `S12: waiting for compaction: kcm.state.pods ${last.state.objects} records of ${last.state.keys} keys, kcm.watch.pods ${last.history.objects}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    previous = last.history.objects;
    last = await podRecords(bus);
  }
  return { compacted: false, seconds: since(started), before, after: last };
}

/**
 * run: the writer is started once and stopped, so that the topics it owns (kcm.mutation-results, which reconciler-rc
 * reads) exist when S12 runs alone on a fresh stack.
 */
async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const partitions = await watchPartitions(ctx.e);
  const pop = new Population(ctx, {
    namespaces: spreadNamespaces(`${ctx.runId}-s12`, 2 * partitions, partitions),
    perRc: PER_RC,
    scheduled: false,
  });
  const bus = kafkaBus({ brokers: ctx.e.kafkaBrokers, clientId: 'kcm-bus-bench' });
  const watcher: Watcher = { current: { stop: () => terminate(childPid(WATCHER_MAIN)) } };
  try {
    await (await startService('writer', writerFlags(ctx.e, QPS))).stop();
    await pop.grow(PODS);
    await waitFor(
      `${POD_TOPICS.state} to hold the ${pop.pods} pods`,
      async () => (await podRecords(bus)).state.live >= pop.pods,
      { timeoutMs: 300_000, intervalMs: 5000 },
    );
    return await withThrowawayTopic(ctx, `${ctx.runId}-s12-mutations`, async () => {
      const short = await measure(ctx, bus, `${ctx.runId}-s12-mutations`, partitions, 'short', watcher);
      await lengthen(ctx, pop);
      const compacted = await compaction(ctx, bus);
      const long = await measure(ctx, bus, `${ctx.runId}-s12-mutations`, partitions, 'long', watcher);
      const configs = await bus.topicConfigs(POD_TOPICS.state);
      const rows = restartRows({
        pods: pop.pods,
        updates: UPDATES,
        repeats: REPEATS,
        short,
        long,
        compaction: compacted,
        configs,
      });
      return {
        rows,
        data: {
          pods: pop.pods,
          rcs: pop.rcs,
          updates: UPDATES,
          repeats: REPEATS,
          short,
          long,
          compaction: compacted,
          configs,
        },
      };
    });
  } finally {
    await pop.cleanUp();
  }
}

/** S12: a fresh reconciler-rc member's and a restarted watcher's time to synced with a short and a 20× longer history. */
export const scenario: Scenario = {
  id: 's12',
  name: 'restart-history',
  title: `restart cost with short and long history, ${PODS} pods`,
  run,
  knobs: [PODS_KNOB, REPEATS_KNOB],
  measures:
    'seconds to synced of a fresh reconciler-rc member, a restarted watcher and upstream kube-controller-manager, with a short ' +
    'history and one 20 times longer over the same live pods: a restart costs O(live state), not O(history)',
};
