import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';
import { runDir } from './paths.ts';

/** PORT_NAMES lists every loopback port the stack listens on, in offset order from the base port. */
export const PORT_NAMES = [
  'etcd',
  'etcdPeer',
  'apiserver',
  'kafka',
  'kafkaController',
  'registry',
  'redis',
  'scheduler',
  'controllerManager',
  'kwok',
  'watcher',
  'writer',
  'reconcilerRc',
  'reconcilerEndpoint',
  'reconcilerNode',
  'kafkaSecure',
  'reconcilerNamespace',
  // The second and third Kafka nodes and the services' second replicas: taken only by a cluster profile.
  'kafka2',
  'kafka2Controller',
  'kafka2Secure',
  'kafka3',
  'kafka3Controller',
  'kafka3Secure',
  'writer2',
  'reconcilerRc2',
  'reconcilerEndpoint2',
  'reconcilerNode2',
  'reconcilerNamespace2',
] as const;

/** PortName is one of the stack's ports. */
export type PortName = (typeof PORT_NAMES)[number];

/** StackConfig is one stack instance: its profile, state folder, ports and fake nodes. */
export type StackConfig = {
  readonly profile: string;
  readonly dir: string;
  readonly host: '127.0.0.1';
  readonly ports: Readonly<Record<PortName, number>>;
  /** How many kwok nodes `up` registers (tests make their own and pass 0). */
  readonly nodes: number;
  /** Upstream controllers run by the stack's kube-controller-manager: all but those kcm-bus replaces, by default. */
  readonly kcmControllers: readonly string[];
  /** kube-scheduler's client QPS (burst twice that): benchmarks raise it so binding is never the bottleneck. */
  readonly schedulerQps: number;
  /** How many KRaft nodes (each a broker and a controller) the stack's Kafka has: 1, or 3 for a replicated cluster. */
  readonly kafkaNodes: 1 | 3;
  /** How many replicas of each reconciler and of the writer `run` starts: 1, or 2 (the watcher is always one). */
  readonly serviceReplicas: 1 | 2;
};

/**
 * CLUSTER_PROFILE is the profile whose stack is a replicated Kafka cluster (three KRaft nodes, every topic at
 * replication factor 3 with min.insync.replicas 2) under two replicas of each reconciler and of the writer.
 * KCM_BUS_KAFKA_NODES and KCM_BUS_SERVICE_REPLICAS give another profile the same shape (the chaos bench's).
 */
export const CLUSTER_PROFILE = 'cluster';

/**
 * KCM_BUS_CONTROLLERS are upstream's controllers kcm-bus replaces, the catalog's (packages/runtime/src/catalog). The
 * stack's kube-controller-manager runs every other one (BESIDE_KCM_BUS), as a cluster running kcm-bus beside its own
 * kube-controller-manager does: garbage collection, quotas and the rest behave as on a real cluster.
 */
export const KCM_BUS_CONTROLLERS: readonly string[] = CONTROLLERS.map((c) => c.name);

/** BESIDE_KCM_BUS is the `--controllers` list of a kube-controller-manager running beside kcm-bus. */
export const BESIDE_KCM_BUS = ['*', ...KCM_BUS_CONTROLLERS.map((c) => `-${c}`)].join(',');

/**
 * DEFAULT_PORT_BASE keeps the dev stack (17100-17199), the test stack (17200-17299) and the cluster stack
 * (17400-17499) clear of a user's own Kafka (9092), Redis (6379), etcd (2379) and apiserver (6443).
 */
export const DEFAULT_PORT_BASE: Readonly<Record<string, number>> = { dev: 17100, test: 17200, cluster: 17400 };

/** stackConfig reads a profile's configuration; KCM_BUS_PORT_BASE and KCM_BUS_PORT_<NAME> override ports. */
export function stackConfig(profile: string, env: NodeJS.ProcessEnv = process.env): StackConfig {
  const base = intFrom(env['KCM_BUS_PORT_BASE'], 'KCM_BUS_PORT_BASE') ?? DEFAULT_PORT_BASE[profile] ?? 17300;
  const ports = Object.fromEntries(
    PORT_NAMES.map((name, i) => {
      const variable = `KCM_BUS_PORT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
      return [name, intFrom(env[variable], variable) ?? base + i];
    }),
  ) as Record<PortName, number>;
  return {
    profile,
    dir: runDir(profile, env),
    host: '127.0.0.1',
    ports,
    nodes: intFrom(env['KCM_BUS_NODES'], 'KCM_BUS_NODES') ?? (profile === 'dev' || profile === CLUSTER_PROFILE ? 2 : 0),
    kcmControllers: (env['KCM_BUS_KCM_CONTROLLERS'] ?? BESIDE_KCM_BUS).split(',').filter(Boolean),
    schedulerQps: intFrom(env['KCM_BUS_SCHEDULER_QPS'], 'KCM_BUS_SCHEDULER_QPS') ?? 50,
    kafkaNodes: oneOf(env, 'KCM_BUS_KAFKA_NODES', [1, 3], profile === CLUSTER_PROFILE ? 3 : 1),
    serviceReplicas: oneOf(env, 'KCM_BUS_SERVICE_REPLICAS', [1, 2], profile === CLUSTER_PROFILE ? 2 : 1),
  };
}

/** oneOf reads a count that must be one of `allowed` (the shapes the stack knows how to run), else the fallback. */
function oneOf<T extends number>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const value = intFrom(env[name], name);
  if (value === undefined) return fallback;
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw new Error(`${name}=${value}: the stack runs ${allowed.join(' or ')}`);
  return found;
}

function intFrom(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name}=${value} is not a port number or count`);
  return n;
}
