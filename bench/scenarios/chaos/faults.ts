import { rmSync } from 'node:fs';
import { knob, knobValue } from '../../lib/knobs.ts';
import { join } from 'node:path';
import { BROKER_PAUSE_S, type BrokerFaults } from './broker-faults.ts';
import { PAUSE_S, VICTIMS, type ChaosSystem } from './system.ts';
import type { StackFaults } from './stack-faults.ts';

/**
 * Fault is one injection: into the kcm-bus services, or into the stack (`upstreamToo`: one kube-controller-manager
 * stands on as well, so it runs under both arms).
 */
export type Fault = { readonly name: string } & (
  | { readonly on: 'services'; readonly inject: (s: ChaosSystem) => Promise<void> }
  | { readonly on: 'brokers'; readonly inject: (b: BrokerFaults) => Promise<void> }
  | { readonly on: 'stack'; readonly inject: (f: StackFaults) => Promise<void>; readonly upstreamToo: boolean }
);

/** injectInto injects a fault into what it hits: the services, the brokers of a cluster, or the stack. */
export function injectInto(f: Fault, system: ChaosSystem, brokers: BrokerFaults): Promise<void> {
  return f.on === 'stack' ? f.inject(system.stack) : f.on === 'brokers' ? f.inject(brokers) : f.inject(system);
}

/** StackFault is a fault of the stack, the only kind upstream's arm can be given. */
export type StackFault = Extract<Fault, { readonly on: 'stack' }>;

export const FAULTS: readonly Fault[] = [
  { name: 'kill -9 reconciler-rc (one of two)', on: 'services', inject: (s) => s.kill('reconciler-rc') },
  { name: 'kill -9 writer', on: 'services', inject: (s) => s.kill('writer') },
  { name: 'kill -9 watcher', on: 'services', inject: (s) => s.kill('watcher') },
  {
    name: `SIGSTOP reconciler-rc ${PAUSE_S} s, SIGCONT (a zombie)`,
    on: 'services',
    inject: (s) => s.pause('reconciler-rc'),
  },
  { name: `SIGSTOP writer ${PAUSE_S} s, SIGCONT`, on: 'services', inject: (s) => s.pause('writer') },
  {
    name: 'kill -9 watcher, writer, reconciler-rc at once',
    on: 'services',
    inject: async (s) => void (await Promise.all([s.kill('watcher'), s.kill('writer'), s.kill('reconciler-rc')])),
  },
  {
    name: 'kill -9 the Kafka broker, restart',
    on: 'stack',
    upstreamToo: false,
    inject: (f) => f.restartPart('kafka', { graceMs: 0 }),
  },
  { name: 'restart the schema registry', on: 'stack', upstreamToo: false, inject: (f) => f.restartPart('registry') },
  { name: 'restart kube-apiserver', on: 'stack', upstreamToo: true, inject: (f) => f.restartPart('kube-apiserver') },
  {
    name: 'kill -9 Redis, restart without its data',
    on: 'stack',
    upstreamToo: false,
    inject: (f) => f.restartPart('redis', { graceMs: 0, whileDown: () => forgetRedisData(f) }),
  },
  {
    name: '410 storm: etcd compacted, apiserver restarted, 3 times',
    on: 'stack',
    upstreamToo: true,
    inject: (f) => f.storm410(3),
  },
  { name: 'kill -9 watcher mid-relist (after a 410)', on: 'services', inject: (s) => s.crashInRelist() },
];

/**
 * CLUSTER_FAULTS are the faults of a replicated cluster (the bench stack with three Kafka nodes, two replicas of each
 * reconciler and of the writer), run in place of FAULTS there: the brokers' run their course in the background.
 */
export const CLUSTER_FAULTS: readonly Fault[] = [
  { name: 'cluster: kill -9 the broker leading most partitions', on: 'brokers', inject: (b) => b.killBusiest() },
  {
    name: `cluster: SIGSTOP that broker ${BROKER_PAUSE_S} s, SIGCONT (a zombie)`,
    on: 'brokers',
    inject: (b) => b.pauseBusiest(),
  },
  { name: 'cluster: kill -9 the active KRaft controller', on: 'brokers', inject: (b) => b.killController() },
  { name: 'cluster: rolling restart of every broker', on: 'brokers', inject: (b) => b.rollingRestart() },
  {
    name: 'cluster: kill -9 one replica of each service',
    on: 'services',
    inject: async (s) => void (await Promise.all(VICTIMS.map((v) => s.kill(v)))),
  },
];

/** faultsOf are the faults of a stack of that many Kafka nodes: CLUSTER_FAULTS on a cluster, FAULTS on one broker. */
export function faultsOf(kafkaNodes: 1 | 3): readonly Fault[] {
  return kafkaNodes === 3 ? CLUSTER_FAULTS : FAULTS;
}

/** ONLY_KNOB (CHAOS_ONLY) picks faults by words of their names, for the chaos run and the soak. */
export const ONLY_KNOB = knob(
  'CHAOS_ONLY',
  undefined,
  'comma-separated words: only the faults whose name holds one (all when unset)',
);

/** chosenFaults are the faults of the stack's shape (faultsOf) whose name holds one of CHAOS_ONLY's words (all when unset). */
export function chosenFaults(kafkaNodes: 1 | 3): readonly Fault[] {
  const words = (knobValue(ONLY_KNOB) ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  const all = faultsOf(kafkaNodes);
  return words.length === 0 ? all : all.filter((f) => words.some((w) => f.name.includes(w)));
}

/** forgetRedisData deletes what Redis persisted (its append-only files and snapshot): a restart as after a disk loss. */
function forgetRedisData(f: StackFaults): void {
  for (const file of ['appendonlydir', 'appendonly.aof', 'dump.rdb'])
    rmSync(join(f.dir, file), { recursive: true, force: true });
}
