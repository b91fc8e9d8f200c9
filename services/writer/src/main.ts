import { readFileSync } from 'node:fs';
import { KubeConfig, loadYaml } from '@kubernetes/client-node';
import { loadKubeConfig } from '@kcm-bus/runtime/credentials/credentials.fs.ts';
import { SlowStartGate } from '@kcm-bus/runtime/mutation/index.ts';
import { serviceMain } from '@kcm-bus/runtime/service/main.node.ts';
import { loadSigning } from '@kcm-bus/runtime/signing/signing-keys.fs.ts';
import { WRITER_SIGNER } from '@kcm-bus/runtime/signing/index.ts';
import { realClock, realScheduler } from '@kcm-bus/runtime/workqueue/index.ts';
import { DEFAULT_ALLOWLIST, parseAllowlist } from './allowlist.ts';
import { kubeApi } from './api.kube.ts';
import { applyMutation } from './apply-mutation.ts';
import { DEFAULT_RETRY_POLICY } from './backoff.ts';
import { RequestBudget } from './budget.ts';
import { EventCorrelator } from './event-correlator.ts';
import { AbandonedError } from './executor.ts';
import { withSlowStart } from './slow-start.ts';
import { startWriterLoop } from './writer-loop.ts';
import { promRestClientMetrics } from './rest-metrics.prom.ts';
import { WRITER_FLAGS, writerConfig } from './writer-flags.ts';
import { promWriterMetrics } from './writer-metrics.prom.ts';
import { readTokenKeys } from './token/token-keys.fs.ts';
import type { TokenKeys } from './token/populate-token.ts';

await serviceMain(
  'writer',
  [
    ...WRITER_FLAGS,
    {
      name: 'partitions',
      type: 'number',
      default: 6,
      help: 'Partitions of kcm.mutations, kcm.mutation-results and the DLQ when the writer creates them.',
    },
    {
      name: 'retention-seconds',
      type: 'number',
      default: 7 * 86_400,
      help: 'retention.ms of the topics the writer creates.',
    },
  ],
  async (ctx) => {
    const config = writerConfig(ctx.flags);
    const kc = new KubeConfig();
    const credentials = loadKubeConfig(kc, config.kubeconfig, loadYaml);
    const allowlist = config.allowlistPath
      ? parseAllowlist(readFileSync(config.allowlistPath, 'utf8'), config.allowlistPath)
      : DEFAULT_ALLOWLIST;
    const stopping = new AbortController();
    const now = (): string => new Date().toISOString();
    const deps = {
      api: await kubeApi(kc, credentials, promRestClientMetrics(ctx.registry), config.concurrency),
      budget: new RequestBudget(config.budget, realClock, realScheduler),
      allowlist,
      correlator: new EventCorrelator(realClock),
      scheduler: realScheduler,
      now,
      random: Math.random,
      policy: DEFAULT_RETRY_POLICY,
      signal: stopping.signal,
      maxCreateAgeMs: config.maxCreateAgeMs,
      ...tokensOf(config.serviceAccountKeyFile, config.rootCAFile),
    };
    const signing = loadSigning(ctx.flags.string('signing-dir'), WRITER_SIGNER);
    if (!signing.enabled)
      ctx.log.warn(
        'no --signing-dir: any record on kcm.mutations is obeyed, whoever produced it, and results go unsigned',
      );
    const loop = await startWriterLoop({
      bus: ctx.bus,
      registry: ctx.schemaRegistry,
      apply: withSlowStart(new SlowStartGate(), (m) => applyMutation(m, deps), now),
      concurrency: config.concurrency,
      partitions: ctx.flags.number('partitions'),
      retentionMs: ctx.flags.number('retention-seconds') * 1000,
      log: ctx.log,
      metrics: promWriterMetrics(ctx.registry),
      fatal: ctx.fatal,
      signal: stopping.signal,
      scheduler: realScheduler,
      now,
      signing,
    });
    return {
      probes: { healthy: loop.healthy, ready: () => loop.notReady() === undefined, notReadyReason: loop.notReady },
      // Retries are abandoned first (their records stay uncommitted for the next writer), then requests in flight finish.
      stop: async () => {
        stopping.abort(new AbandonedError('the writer is stopping'));
        await loop.stop();
      },
    };
  },
);

/** tokensOf is WriterDeps' tokens, when a service-account key file is given. */
function tokensOf(keyFile: string, caFile: string): { tokens?: TokenKeys } {
  const tokens = readTokenKeys(keyFile, caFile);
  return tokens === undefined ? {} : { tokens };
}
