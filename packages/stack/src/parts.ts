import { join } from 'node:path';
import { SERVICEACCOUNT_TOKEN_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import type { StackConfig, PortName } from './config.ts';
import type { Launch } from './procs.ts';
import type { Binaries } from './obtain-all.ts';
import { httpOk, redisPing } from './probes.ts';
import { pkiDir, tlsClient } from './pki.ts';
import { kubeconfigPath } from './kube-access.ts';
import { KWOK_STAGES } from './build/kwok.ts';
import { kafkaParts } from './kafka-part.ts';
import { registryLaunch } from './registry-part.ts';

/** Part is one process of the stack: how to launch it, which ports it takes, when it is ready. */
export type Part = {
  readonly name: string;
  readonly ports: readonly PortName[];
  readonly launch: Launch;
  readonly ready: () => Promise<boolean>;
  /** How long it may take to become ready (the registry and Kafka are JVMs on a shared 2-core machine). */
  readonly readyTimeoutMs: number;
  readonly prepare?: () => Promise<void>;
  /** configure runs once the part is ready, whether it was started now or found running (Kafka's ACLs). */
  readonly configure?: () => Promise<void>;
};

/** bin finds a built binary in the cache. */
function bin(b: Binaries, part: string, name = part): string {
  const dir = b.dirs.get(part);
  if (!dir) throw new Error(`${part} has not been obtained`);
  return join(dir, 'bin', name);
}

/** apiserverUrl is the local apiserver's address. */
export function apiserverUrl(c: StackConfig): string {
  return `https://${c.host}:${c.ports.apiserver}`;
}

/** dataParts are the stores and the bus; they start first and in parallel. */
export function dataParts(c: StackConfig, b: Binaries): readonly Part[] {
  return [
    {
      name: 'etcd',
      ports: ['etcd', 'etcdPeer'],
      readyTimeoutMs: 60_000,
      launch: {
        name: 'etcd',
        command: bin(b, 'etcd'),
        args: [
          '--name',
          'kcm-bus',
          '--data-dir',
          join(c.dir, 'etcd'),
          '--unsafe-no-fsync',
          '--listen-client-urls',
          `http://${c.host}:${c.ports.etcd}`,
          '--advertise-client-urls',
          `http://${c.host}:${c.ports.etcd}`,
          '--listen-peer-urls',
          `http://${c.host}:${c.ports.etcdPeer}`,
          '--initial-advertise-peer-urls',
          `http://${c.host}:${c.ports.etcdPeer}`,
          '--initial-cluster',
          `kcm-bus=http://${c.host}:${c.ports.etcdPeer}`,
          '--quota-backend-bytes',
          String(4 * 1024 ** 3),
        ],
      },
      ready: () => httpOk(`http://${c.host}:${c.ports.etcd}/health`, undefined, /"health":"true"/),
    },
    ...kafkaParts(c, b),
    {
      name: 'registry',
      ports: ['registry'],
      readyTimeoutMs: 180_000,
      launch: registryLaunch(c, b),
      ready: () => httpOk(`http://${c.host}:${c.ports.registry}/apis/ccompat/v7/subjects`),
    },
    {
      // The expectations outlive a Redis restart as a user should run it: with the append-only file, synced every
      // second (a restart loses at most the last second of expectation writes, not all of them).
      name: 'redis',
      ports: ['redis'],
      readyTimeoutMs: 30_000,
      launch: {
        name: 'redis',
        command: b.redisServer,
        args: [
          '--port',
          String(c.ports.redis),
          '--bind',
          c.host,
          '--save',
          '',
          '--appendonly',
          'yes',
          '--appendfsync',
          'everysec',
          '--dir',
          c.dir,
        ],
      },
      ready: () => redisPing(c.ports.redis),
    },
  ];
}

/** controlParts are the Kubernetes control plane and the fake kubelet; they start after etcd, in this order. */
export function controlParts(c: StackConfig, b: Binaries): readonly Part[] {
  const pki = (f: string): string => join(pkiDir(c.dir), f);
  const admin = kubeconfigPath(c.dir);
  const delegated = [
    '--kubeconfig',
    admin,
    '--authentication-kubeconfig',
    admin,
    '--authorization-kubeconfig',
    admin,
    '--leader-elect=false',
    '--bind-address',
    c.host,
  ];
  const healthz = (port: number) => (): Promise<boolean> => httpOk(`https://${c.host}:${port}/healthz`);
  return [
    {
      name: 'kube-apiserver',
      ports: ['apiserver'],
      readyTimeoutMs: 120_000,
      launch: {
        name: 'kube-apiserver',
        command: bin(b, 'kube-apiserver'),
        args: [
          '--etcd-servers',
          `http://${c.host}:${c.ports.etcd}`,
          '--bind-address',
          c.host,
          '--advertise-address',
          c.host,
          '--secure-port',
          String(c.ports.apiserver),
          '--client-ca-file',
          pki('ca.crt'),
          '--tls-cert-file',
          pki('apiserver.crt'),
          '--tls-private-key-file',
          pki('apiserver.key'),
          '--authorization-mode',
          'RBAC',
          '--service-cluster-ip-range',
          '10.0.0.0/24',
          '--service-account-issuer',
          'https://kubernetes.default.svc',
          '--service-account-key-file',
          pki('sa.pub'),
          '--service-account-signing-key-file',
          pki('sa.key'),
          '--disable-admission-plugins',
          'ServiceAccount',
          '--endpoint-reconciler-type',
          'none',
          '--profiling=false',
        ],
      },
      ready: () => httpOk(`${apiserverUrl(c)}/readyz`, tlsClient(c.dir, 'admin'), /^ok$/),
    },
    {
      name: 'kube-scheduler',
      ports: ['scheduler'],
      readyTimeoutMs: 60_000,
      ready: healthz(c.ports.scheduler),
      launch: {
        name: 'kube-scheduler',
        command: bin(b, 'kube-scheduler'),
        args: [
          ...delegated,
          '--secure-port',
          String(c.ports.scheduler),
          '--kube-api-qps',
          String(c.schedulerQps),
          '--kube-api-burst',
          String(2 * c.schedulerQps),
        ],
      },
    },
    {
      name: 'kube-controller-manager',
      ports: ['controllerManager'],
      readyTimeoutMs: 60_000,
      ready: healthz(c.ports.controllerManager),
      launch: {
        name: 'kube-controller-manager',
        command: bin(b, 'kube-controller-manager'),
        args: [
          ...delegated,
          '--secure-port',
          String(c.ports.controllerManager),
          '--use-service-account-credentials=false',
          '--controllers',
          c.kcmControllers.join(','),
          // The token controller starts whatever --controllers says, whenever it has a key: kcm-bus's runs in its place.
          ...(c.kcmControllers.includes(`-${SERVICEACCOUNT_TOKEN_CONTROLLER.name}`)
            ? []
            : ['--service-account-private-key-file', pki('sa.key')]),
          '--root-ca-file',
          pki('ca.crt'),
        ],
      },
    },
    {
      name: 'kwok',
      ports: ['kwok'],
      readyTimeoutMs: 60_000,
      ready: () => httpOk(`http://${c.host}:${c.ports.kwok}/healthz`),
      launch: {
        name: 'kwok',
        command: bin(b, 'kwok'),
        args: [
          '--kubeconfig',
          admin,
          '--manage-all-nodes=false',
          '--manage-nodes-with-annotation-selector',
          'kwok.x-k8s.io/node=fake',
          '--cidr',
          '10.244.0.0/16',
          '--node-ip',
          '10.1.0.1',
          '--node-lease-duration-seconds',
          '40',
          '--server-address',
          `${c.host}:${c.ports.kwok}`,
          ...KWOK_STAGES.flatMap((s) => ['-c', join(b.dirs.get('kwok') ?? '', 'stage', s)]),
        ],
      },
    },
  ];
}
