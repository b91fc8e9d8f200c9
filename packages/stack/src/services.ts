import { resolve } from 'node:path';
import { serviceLaunch } from '@kcm-bus/runtime/service/index.ts';
import type { PortName, StackConfig } from './config.ts';
import { serviceBusFlags, type StackEndpoints } from './endpoints.ts';
import type { ServiceName } from './kafka-acls.ts';
import type { Part } from './parts.ts';
import { httpOk } from './probes.ts';

const REPO = resolve(import.meta.dirname, '../../..');

/** serviceScript is the entry point of a kcm-bus service in this checkout. */
export function serviceScript(name: string): string {
  return resolve(REPO, `services/${name}/src/main.ts`);
}

/**
 * SECOND_REPLICA_PORTS are the metrics ports of the second replicas a cluster profile runs: of each reconciler and
 * of the writer. The watcher stays one (a second would fence the first: one watcher per kind, by its epoch).
 */
const SECOND_REPLICA_PORTS: Partial<Record<PortName, PortName>> = {
  writer: 'writer2',
  reconcilerRc: 'reconcilerRc2',
  reconcilerEndpoint: 'reconcilerEndpoint2',
  reconcilerNode: 'reconcilerNode2',
  reconcilerNamespace: 'reconcilerNamespace2',
};

/**
 * serviceParts are the kcm-bus services, run against the stack (each on its metrics port), each logged in to
 * Kafka as its own principal on the secure listener, as a deployment runs them; with two replicas (a cluster
 * profile) the second of a service is the part `<service>-2`, a member of the same consumer group.
 */
export function serviceParts(c: StackConfig, e: StackEndpoints): readonly Part[] {
  const replicas = (name: ServiceName, port: PortName, args: readonly string[]): Part[] => {
    const second = c.serviceReplicas === 2 ? SECOND_REPLICA_PORTS[port] : undefined;
    return [service(name, name, port, args), ...(second ? [service(`${name}-2`, name, second, args)] : [])];
  };
  const service = (part: string, name: ServiceName, port: PortName, args: readonly string[]): Part => ({
    name: part,
    ports: [port],
    readyTimeoutMs: 120_000,
    launch: {
      name: part,
      ...serviceLaunch(serviceScript(name), [
        ...serviceBusFlags(e, name),
        '--metrics-bind-address',
        `${c.host}:${c.ports[port]}`,
        ...args,
      ]),
    },
    ready: () => httpOk(`http://${c.host}:${c.ports[port]}/readyz`),
  });
  return [
    ...replicas('watcher', 'watcher', ['--kubeconfig', e.kubeconfigs.watcher]),
    ...replicas('writer', 'writer', [
      '--kubeconfig',
      e.kubeconfigs.writer,
      '--service-account-private-key-file',
      e.serviceAccountKeyFile,
      '--root-ca-file',
      e.caFile,
    ]),
    ...replicas('reconciler-rc', 'reconcilerRc', ['--redis-url', e.redis]),
    ...replicas('reconciler-endpoint', 'reconcilerEndpoint', []),
    ...replicas('reconciler-node', 'reconcilerNode', []),
    ...replicas('reconciler-namespace', 'reconcilerNamespace', ['--root-ca-file', e.caFile]),
  ];
}

/** metricsUrls lists where each service's /metrics is, for the run command's summary. */
export function metricsUrls(c: StackConfig, parts: readonly Part[]): string[] {
  const width = Math.max(23, ...parts.map((p) => p.name.length + ' /metrics'.length));
  return parts.map(
    (p) => `  ${`${p.name} /metrics`.padEnd(width)} http://${c.host}:${c.ports[p.ports[0] ?? 'watcher']}/metrics`,
  );
}
