import type { StackConfig } from './config.ts';
import { kubeconfigPath } from './kube-access.ts';
import { apiserverUrl } from './parts.ts';
import { registryUrl } from './registry-part.ts';
import { signingDir } from './signing.ts';

/** StackEndpoints says where every part of a running stack is; `up` writes it to endpoints.json. */
export type StackEndpoints = {
  readonly apiserver: string;
  readonly kubeconfig: string;
  readonly kubeconfigs: Readonly<Record<'watcher' | 'writer', string>>;
  readonly kafkaBootstrap: string;
  readonly registry: string;
  readonly redis: string;
  readonly etcd: string;
  /** signingDir holds every local signer's Ed25519 key pair: each service's `--signing-dir`. */
  readonly signingDir: string;
};

/** stackEndpoints derives the endpoints of a stack from its configuration. */
export function stackEndpoints(c: StackConfig): StackEndpoints {
  return {
    apiserver: apiserverUrl(c),
    kubeconfig: kubeconfigPath(c.dir),
    kubeconfigs: { watcher: kubeconfigPath(c.dir, 'watcher'), writer: kubeconfigPath(c.dir, 'writer') },
    kafkaBootstrap: `${c.host}:${c.ports.kafka}`,
    registry: registryUrl(c),
    redis: `redis://${c.host}:${c.ports.redis}`,
    etcd: `http://${c.host}:${c.ports.etcd}`,
    signingDir: signingDir(c.dir),
  };
}

/** kafkaFlags are the Kafka and schema registry flags: what a tool (`kcm-bus tail`) needs to read a stack's topics. */
export function kafkaFlags(e: StackEndpoints): string[] {
  return ['--kafka-brokers', e.kafkaBootstrap, '--schema-registry-url', e.registry];
}

/** busFlags are the Kafka, schema registry and signing flags every kcm-bus service gets to reach a stack. */
export function busFlags(e: StackEndpoints): string[] {
  return [...kafkaFlags(e), '--signing-dir', e.signingDir];
}

/** formatEndpoints tells the user where everything is, one line a part. */
export function formatEndpoints(e: StackEndpoints, extra: readonly string[] = []): string {
  return [
    '', 'kcm-bus local stack:',
    `  kubeconfig              ${e.kubeconfig}   (kubectl --kubeconfig ${e.kubeconfig} get nodes)`,
    `  apiserver               ${e.apiserver}`,
    `  kafka bootstrap         ${e.kafkaBootstrap}`,
    `  schema registry         ${e.registry}`,
    `  redis                   ${e.redis}`,
    ...extra, '',
  ].join('\n');
}
