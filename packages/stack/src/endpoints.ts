import { join } from 'node:path';
import type { StackConfig } from './config.ts';
import type { ServiceName } from './kafka-acls.ts';
import { kafkaAddresses } from './kafka-nodes.ts';
import { kafkaSecureEndpoint, type KafkaSecureEndpoint } from './kafka-secure.ts';
import { kubeconfigPath } from './kube-access.ts';
import { pkiDir } from './pki.ts';
import { apiserverUrl } from './parts.ts';
import { registryUrl } from './registry-part.ts';
import { signingDir } from './signing.ts';

/** StackEndpoints says where every part of a running stack is; `up` writes it to endpoints.json. */
export type StackEndpoints = {
  readonly apiserver: string;
  readonly kubeconfig: string;
  readonly kubeconfigs: Readonly<Record<'watcher' | 'writer', string>>;
  /** kafkaBootstrap is every Kafka node's PLAINTEXT listener, comma-separated; kafkaBrokers the same as a list. */
  readonly kafkaBootstrap: string;
  readonly kafkaBrokers: string[];
  /** kafkaSecure is the broker's SASL_SSL listener (SCRAM-SHA-512/256 and PLAIN), for clients of a secured Kafka. */
  readonly kafkaSecure: KafkaSecureEndpoint;
  readonly registry: string;
  readonly redis: string;
  readonly etcd: string;
  /** signingDir holds every local signer's Ed25519 key pair: each service's `--signing-dir`. */
  readonly signingDir: string;
  /** caFile is the cluster's CA bundle (the apiserver's serving certificate's): reconciler-namespace's --root-ca-file. */
  readonly caFile: string;
  /** serviceAccountKeyFile signs service-account tokens: the writer's --service-account-private-key-file. */
  readonly serviceAccountKeyFile: string;
};

/** stackEndpoints derives the endpoints of a stack from its configuration. */
export function stackEndpoints(c: StackConfig): StackEndpoints {
  return {
    apiserver: apiserverUrl(c),
    kubeconfig: kubeconfigPath(c.dir),
    kubeconfigs: { watcher: kubeconfigPath(c.dir, 'watcher'), writer: kubeconfigPath(c.dir, 'writer') },
    kafkaBootstrap: kafkaAddresses(c, 'client').join(','),
    kafkaBrokers: kafkaAddresses(c, 'client'),
    kafkaSecure: kafkaSecureEndpoint(c),
    registry: registryUrl(c),
    redis: `redis://${c.host}:${c.ports.redis}`,
    etcd: `http://${c.host}:${c.ports.etcd}`,
    signingDir: signingDir(c.dir),
    caFile: join(pkiDir(c.dir), 'ca.crt'),
    serviceAccountKeyFile: join(pkiDir(c.dir), 'sa.key'),
  };
}

/** kafkaFlags are the Kafka and schema registry flags: what a tool (`kcm-bus tail`) needs to read a stack's topics. */
export function kafkaFlags(e: StackEndpoints): string[] {
  return ['--kafka-brokers', e.kafkaBootstrap, '--schema-registry-url', e.registry];
}

/**
 * kafkaSecureFlags are kafkaFlags for the stack's SASL_SSL listener: TLS trusting the stack's CA, and a SASL login
 * (SCRAM-SHA-512 unless another of its mechanisms is asked for) with the password from its file.
 */
export function kafkaSecureFlags(
  e: StackEndpoints,
  mechanism = 'scram-sha-512',
  login = { username: e.kafkaSecure.username, passwordFile: e.kafkaSecure.passwordFile },
): string[] {
  const s = e.kafkaSecure;
  return [
    '--kafka-brokers',
    s.bootstrap,
    '--schema-registry-url',
    e.registry,
    '--kafka-tls',
    '--kafka-tls-ca-file',
    s.caFile,
    '--kafka-sasl-mechanism',
    mechanism,
    '--kafka-sasl-username',
    login.username,
    '--kafka-sasl-password-file',
    login.passwordFile,
  ];
}

/** busFlags are the Kafka, schema registry and signing flags every kcm-bus service gets to reach a stack. */
export function busFlags(e: StackEndpoints): string[] {
  return [...kafkaFlags(e), '--signing-dir', e.signingDir];
}

/**
 * serviceBusFlags are busFlags through the secure listener, logged in (SCRAM-SHA-512) as the service's own
 * principal, which the broker's ACLs allow only that service's reads and writes (kafka-acls.ts).
 */
export function serviceBusFlags(e: StackEndpoints, service: ServiceName): string[] {
  return [
    ...kafkaSecureFlags(e, 'scram-sha-512', {
      username: service,
      passwordFile: e.kafkaSecure.servicePasswordFiles[service],
    }),
    '--signing-dir',
    e.signingDir,
  ];
}

/** formatEndpoints tells the user where everything is, one line a part. */
export function formatEndpoints(e: StackEndpoints, extra: readonly string[] = []): string {
  return [
    '',
    'kcm-bus local stack:',
    `  kubeconfig              ${e.kubeconfig}   (kubectl --kubeconfig ${e.kubeconfig} get nodes)`,
    `  apiserver               ${e.apiserver}`,
    `  kafka bootstrap         ${e.kafkaBootstrap}`,
    `  kafka SASL_SSL          ${e.kafkaSecure.bootstrap}   (user ${e.kafkaSecure.username}, password in ${e.kafkaSecure.passwordFile}, CA ${e.kafkaSecure.caFile})`,
    `  schema registry         ${e.registry}`,
    `  redis                   ${e.redis}`,
    ...extra,
    '',
  ].join('\n');
}
