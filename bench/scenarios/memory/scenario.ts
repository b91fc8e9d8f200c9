import { clusterCount, Population, spreadNamespaces, watchPartitions } from '../../lib/population.ts';
import { gcMemory, mallocHeapBytes, rssBytes, waitSteady, type GcMemory } from '../../lib/probes.ts';
import { knob, numbersKnob } from '../../lib/knobs.ts';
import type { BenchContext, Row, Scenario } from '../../lib/scenario.ts';
import { startUpstream } from '@kcm-bus/harness/upstream.ts';
import { benchWatcherPid, caughtUp, startKcmBus, type Qps } from '../../lib/systems.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const SIZES_KNOB = knob('BENCH_S6_PODS', '1000,10000', 'the cluster sizes measured, in pods (RCs of 50, scheduled)');
const SIZES = numbersKnob(SIZES_KNOB);
const PER_RC = 50;
const QPS: Qps = { qps: 1000, burst: 1000 };
const CATCH_UP_MS = 600_000;
const MB = 2 ** 20;
/** PerService is one figure of each kcm-bus service. */
type PerService = Readonly<Record<'watcher' | 'writer' | 'reconciler', number>>;

/** Where is where a service's RSS lies after a full GC: V8's heap and the memory it accounts for outside it, glibc's brk heap. */
type Where = GcMemory & { readonly mallocHeap: number };

/**
 * Sample is what one cluster size measured: pods in the cluster, RSS (bytes) of every process, live heaps, pods
 * cached, and where the RSS of the two services that cache pods lies.
 */
type Sample = {
  readonly pods: number;
  readonly upstream: number;
  readonly rss: PerService;
  readonly heap: PerService;
  readonly cachedPods: number;
  readonly where: Readonly<Record<'watcher' | 'reconciler', Where>>;
};

/** upstreamRss runs kube-controller-manager until it reported every RC and its RSS held steady. */
async function upstreamRss(ctx: BenchContext, pop: Population): Promise<number> {
  const kcm = startUpstream(ctx.e, QPS);
  try {
    await waitFor('upstream to report every RC', () => pop.observed(), { timeoutMs: CATCH_UP_MS, intervalMs: 1000 });
    const pid = kcm.process.pid ?? 0;
    return (await waitSteady('kube-controller-manager RSS', { rss: () => rssBytes(pid) }))('rss');
  } finally {
    await kcm.stop();
  }
}

/**
 * kcmBusMemory runs the writer and reconciler-rc until reconciler-rc synced, then collects the garbage of the
 * three services (one at a time: one inspector port) and reads their live heaps and their RSS once steady.
 */
async function kcmBusMemory(ctx: BenchContext, pods: number): Promise<Omit<Sample, 'pods' | 'upstream'>> {
  const bus = await startKcmBus(ctx.e, QPS);
  try {
    const cachedPods = await caughtUp(bus.reconciler, pods);
    const pids: PerService = {
      watcher: benchWatcherPid(),
      writer: bus.writer.process.pid ?? 0,
      reconciler: bus.reconciler.process.pid ?? 0,
    };
    const gc = {
      watcher: await gcMemory(pids.watcher),
      writer: await gcMemory(pids.writer),
      reconciler: await gcMemory(pids.reconciler),
    };
    const steady = await waitSteady('kcm-bus RSS after a full GC', {
      watcher: () => rssBytes(pids.watcher),
      writer: () => rssBytes(pids.writer),
      reconciler: () => rssBytes(pids.reconciler),
    });
    const where = {
      watcher: { ...gc.watcher, mallocHeap: mallocHeapBytes(pids.watcher) },
      reconciler: { ...gc.reconciler, mallocHeap: mallocHeapBytes(pids.reconciler) },
    };
    const heap = { watcher: gc.watcher.heapUsed, writer: gc.writer.heapUsed, reconciler: gc.reconciler.heapUsed };
    return {
      rss: { watcher: steady('watcher'), writer: steady('writer'), reconciler: steady('reconciler') },
      heap,
      cachedPods,
      where,
    };
  } finally {
    await bus.stop();
  }
}

/** measure reads both systems' memory with the population as it is. */
async function measure(ctx: BenchContext, pop: Population): Promise<Sample> {
  const pods = await clusterCount(ctx, 'pods');
  ctx.log(`S6 with ${pods} pods: upstream`);
  const upstream = await upstreamRss(ctx, pop);
  ctx.log(`S6 with ${pods} pods: kcm-bus`);
  return { pods, upstream, ...(await kcmBusMemory(ctx, pods)) };
}

const sum = (x: PerService): number => x.watcher + x.writer + x.reconciler;
const mb = (bytes: number): string => `${(bytes / MB).toFixed(0)} MB`;
const whereNote = (w: Where): string =>
  `live heap ${mb(w.heapUsed)} of V8's ${mb(w.heapTotal)}, external ${mb(w.external)}, malloc heap ${mb(w.mallocHeap)}`;

function sizeRows(s: Sample): Row[] {
  const at = `S6 RSS, ${s.pods} pods`;
  return [
    {
      scenario: at,
      unit: 'MB',
      upstream: s.upstream / MB,
      kcmBus: sum(s.rss) / MB,
      note: `upstream: RC controller only (pod, RC informers); kcm-bus: the 3 services below, live heaps ${mb(sum(s.heap))} (Kafka, Redis apart)`,
    },
    {
      scenario: `${at}: watcher`,
      unit: 'MB',
      kcmBus: s.rss.watcher / MB,
      note: `list/watch -> Kafka, last published state of all objects of 6 kinds; ${whereNote(s.where.watcher)}`,
    },
    {
      scenario: `${at}: writer`,
      unit: 'MB',
      kcmBus: s.rss.writer / MB,
      note: `Kafka -> API, caches no objects; live heap ${mb(s.heap.writer)}`,
    },
    {
      scenario: `${at}: reconciler-rc`,
      unit: 'MB',
      kcmBus: s.rss.reconciler / MB,
      note: `pod and RC stores replayed from Kafka, indexed; ${whereNote(s.where.reconciler)}`,
    },
  ];
}

/**
 * growthRows compare the first and last sizes: RSS per added pod (kcm-bus: the two services that cache pods; the
 * writer holds none), and the live heap per cached pod of reconciler-rc (and of the watcher, in the note).
 */
function growthRows(a: Sample, b: Sample): Row[] {
  const per = (x: number, y: number): number => (y - x) / (b.pods - a.pods);
  const [watcher, reconciler] = [per(a.rss.watcher, b.rss.watcher), per(a.rss.reconciler, b.rss.reconciler)];
  return [
    {
      scenario: `S6 RSS per added pod, ${a.pods} -> ${b.pods}`,
      unit: 'B',
      upstream: per(a.upstream, b.upstream),
      kcmBus: watcher + reconciler,
      note: `kcm-bus: watcher ${watcher.toFixed(0)} B + reconciler-rc ${reconciler.toFixed(0)} B (writer ${mb(b.rss.writer - a.rss.writer)}, no pods)`,
    },
    {
      scenario: 'S6 reconciler-rc live heap per cached pod',
      unit: 'B',
      kcmBus: (b.heap.reconciler - a.heap.reconciler) / (b.cachedPods - a.cachedPods),
      note: `${a.cachedPods} -> ${b.cachedPods} cached pods (and 1 RC per ${PER_RC}); watcher ${per(a.heap.watcher, b.heap.watcher).toFixed(0)} B per pod`,
    },
  ];
}

async function run(ctx: BenchContext): Promise<{ rows: Row[]; data: unknown }> {
  const partitions = await watchPartitions(ctx.e);
  const pop = new Population(ctx, {
    namespaces: spreadNamespaces(`${ctx.runId}-s6`, 2 * partitions, partitions),
    perRc: PER_RC,
    scheduled: true,
  });
  const samples: Sample[] = [];
  try {
    for (const size of SIZES) {
      await pop.grow(size);
      samples.push(await measure(ctx, pop));
    }
  } finally {
    await pop.cleanUp();
  }
  const first = samples[0];
  const last = samples.at(-1);
  const growth = first && last && last.pods > first.pods ? growthRows(first, last) : [];
  return { rows: [...samples.flatMap(sizeRows), ...growth], data: { sizes: SIZES, perRc: PER_RC, qps: QPS, samples } };
}

/** S6: RSS of upstream kube-controller-manager and of each kcm-bus service with 1,000 and 10,000 pods (BENCH_S6_PODS), bytes per cached pod. */
export const scenario: Scenario = {
  id: 's6',
  name: 'memory',
  title: `memory with ${SIZES.join(', ')} pods`,
  run,
  knobs: [SIZES_KNOB],
  measures:
    'RSS of upstream kube-controller-manager (RC controller) and of each kcm-bus service at each cluster size, once synced ' +
    'and steady after a full GC; RSS per added pod and live heap per cached pod',
};
