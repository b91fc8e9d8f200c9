import { samplePods } from './pods-over-time.ts';
import { numberKnob, RUN } from './knobs.ts';
import type { BenchContext } from './scenario.ts';
import { cleanUpNamespace, startKcmBus } from './systems.ts';
import { rcManifest } from '@kcm-bus/harness/rc.ts';

const WARM_UP_PODS = numberKnob(RUN.warmUpPods);
const DEADLINE_MS = 300_000;

/**
 * warmUp runs kcm-bus once through an RC of BENCH_WARM_UP_PODS (300; 0 skips it) at 1000/1000 before any scenario,
 * unmeasured, so that the shared stack is measured warm: the broker is a JVM started with the bench stack, and in a
 * `perf record -a` of an S1 run without this step its JIT compiler threads had 6332 of the broker's 15,913 samples
 * (40 %), in every 20 s of the run and most in its first 100 s. A cluster's broker compiled its paths long before;
 * kcm-bus's own services still start fresh in every arm, and pay their own JIT there (S1 warms them within the arm
 * when BENCH_S1_WARM_UP_PODS is set).
 */
export async function warmUp(ctx: BenchContext): Promise<void> {
  if (WARM_UP_PODS <= 0) return;
  const ns = `${ctx.runId}-warm-up`;
  ctx.log(`warm-up: kcm-bus, RC 0 -> ${WARM_UP_PODS} pods at 1000/1000, unmeasured`);
  const bus = await startKcmBus(ctx.e, { qps: 1000, burst: 1000 });
  try {
    await ctx.kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await ctx.kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rcManifest('warm-up', WARM_UP_PODS));
    await samplePods(ctx.kube, ns, WARM_UP_PODS, performance.now(), DEADLINE_MS);
  } finally {
    await cleanUpNamespace(ctx.kube, ns);
    await bus.stop();
  }
}
