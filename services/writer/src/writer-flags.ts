import type { FlagReader, FlagSpec } from '@kcm-bus/runtime/service/index.ts';
import { type BudgetConfig, budgetConfig, DEFAULT_KUBE_API_BURST, DEFAULT_KUBE_API_QPS } from './budget.ts';

/** DEFAULT_CONCURRENCY is how many mutations (of distinct targets) the writer has in flight at most by default. */
export const DEFAULT_CONCURRENCY = 32;

/**
 * WRITER_FLAGS are the writer's own flags, next to the runtime's common ones: upstream's names where
 * kube-controller-manager has the flag (--kubeconfig, --kube-api-qps, --kube-api-burst), kcm-bus's otherwise.
 */
export const WRITER_FLAGS: readonly FlagSpec[] = [
  {
    name: 'kubeconfig',
    type: 'string',
    default: '',
    help: "Path to the writer's kubeconfig; empty: $KUBECONFIG, then in-cluster config.",
  },
  {
    name: 'kube-api-qps',
    type: 'number',
    default: DEFAULT_KUBE_API_QPS,
    help: "QPS of each controller's requests to the apiserver, a budget per controller (kube-controller-manager's flag); 0: client-go's 5, negative: no limit.",
  },
  {
    name: 'kube-api-burst',
    type: 'number',
    default: DEFAULT_KUBE_API_BURST,
    help: "Burst of requests to the apiserver (kube-controller-manager's flag); 0: client-go's 10.",
  },
  {
    name: 'allowlist',
    type: 'string',
    default: '',
    help: 'JSON file {"allow": [{"controller", "resource", "verbs"}]}; empty: upstream\'s grants (DEFAULT_ALLOWLIST).',
  },
  {
    name: 'concurrency',
    type: 'number',
    default: DEFAULT_CONCURRENCY,
    help: "Mutations in flight at once per controller (its records' signer), at most one per target object.",
  },
  {
    name: 'max-create-age',
    type: 'duration',
    default: '5m',
    help:
      "A Create older than this (its createdAt, the controller's clock) is refused " +
      "(CreateExpired), not sent: its expectation has expired and the controller may have created again. Keep it at the reconcilers' " +
      "--expectations-ttl-seconds (upstream's 5m); the hosts' clocks must agree to well within it. 0: no Create expires.",
  },
  {
    name: 'service-account-private-key-file',
    type: 'string',
    default: '',
    help: "The PEM private key (RSA or ECDSA) that signs service-account tokens (kube-controller-manager's flag): serviceaccount-token-controller's PopulateToken mints them here, at apply time. Empty: every PopulateToken is refused.",
  },
  {
    name: 'root-ca-file',
    type: 'string',
    default: '',
    help: "The CA bundle put in each token Secret's ca.crt (kube-controller-manager's flag).",
  },
];

/** WriterConfig is the writer's flags read and checked; null paths mean "use the default". */
export type WriterConfig = {
  readonly kubeconfig: string | null;
  readonly budget: BudgetConfig;
  readonly allowlistPath: string | null;
  readonly concurrency: number;
  readonly maxCreateAgeMs: number;
  readonly serviceAccountKeyFile: string;
  readonly rootCAFile: string;
};

/** writerConfig reads WRITER_FLAGS; a concurrency below 1 or an invalid budget throws a RangeError naming the flag. */
export function writerConfig(flags: FlagReader): WriterConfig {
  const concurrency = flags.number('concurrency');
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new RangeError(`--concurrency must be a positive integer, got ${concurrency}`);
  return {
    kubeconfig: flags.string('kubeconfig') || null,
    budget: budgetConfig(flags.number('kube-api-qps'), flags.number('kube-api-burst')),
    allowlistPath: flags.string('allowlist') || null,
    concurrency,
    maxCreateAgeMs: flags.duration('max-create-age'),
    serviceAccountKeyFile: flags.string('service-account-private-key-file'),
    rootCAFile: flags.string('root-ca-file'),
  };
}
