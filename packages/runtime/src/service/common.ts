import type { FlagSpec } from './flags.ts';
import { KAFKA_SECURITY_FLAGS } from './kafka-security.ts';

/** COMMON_FLAGS are the flags every kcm-bus service takes (environment: KCM_BUS_<NAME>). */
export const COMMON_FLAGS: readonly FlagSpec[] = [
  {
    name: 'kafka-brokers',
    type: 'list',
    default: ['127.0.0.1:17103'],
    help: 'Kafka bootstrap servers, comma-separated (default: the local dev stack).',
  },
  {
    name: 'schema-registry-url',
    type: 'string',
    default: 'http://127.0.0.1:17105/apis/ccompat/v7',
    help: 'Confluent-compatible schema registry API.',
  },
  {
    name: 'metrics-bind-address',
    type: 'string',
    default: '127.0.0.1:0',
    help: "host:port of /metrics, /healthz and /readyz (controller-runtime's flag; port 0 picks one).",
  },
  {
    name: 'signing-dir',
    type: 'string',
    default: '',
    help: "Directory of Ed25519 keys: this service's own `<signer>.key` and the `<signer>.pub` it trusts. Reconcilers sign their mutations and verify the writer's results, the writer verifies mutations and signs results; the watcher and reconciler-namespace read the deployment's secret digest key there (secret-digest.key) unless given --secret-digest-key-file. Empty: nothing signed, nothing verified, and anyone who can produce to Kafka can act on the cluster.",
  },
  { name: 'log-level', type: 'string', default: 'info', help: 'debug, info, warn or error.' },
  {
    name: 'graceful-shutdown-timeout',
    type: 'duration',
    default: '30s',
    help: "How long a stop may take (controller-runtime's GracefulShutdownTimeout): past it the service exits with status 1; what it had not finished is read again by whoever takes its partitions.",
  },
  ...KAFKA_SECURITY_FLAGS,
];
