import { resolve } from 'node:path';
import { SERVICE_MALLOC_ENV } from '@kcm-bus/runtime/service/index.ts';
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
 * serviceParts are the kcm-bus services, run against the stack (each on its metrics port), each logged in to
 * Kafka as its own principal on the secure listener, as a deployment runs them.
 */
export function serviceParts(c: StackConfig, e: StackEndpoints): readonly Part[] {
  const service = (name: ServiceName, port: PortName, args: readonly string[]): Part => ({
    name,
    ports: [port],
    readyTimeoutMs: 120_000,
    launch: {
      name,
      command: process.execPath,
      env: { ...process.env, ...SERVICE_MALLOC_ENV },
      args: [
        '--disable-warning=TimeoutNegativeWarning',
        serviceScript(name),
        ...serviceBusFlags(e, name),
        '--metrics-bind-address',
        `${c.host}:${c.ports[port]}`,
        ...args,
      ],
    },
    ready: () => httpOk(`http://${c.host}:${c.ports[port]}/readyz`),
  });
  return [
    service('watcher', 'watcher', ['--kubeconfig', e.kubeconfigs.watcher]),
    service('writer', 'writer', [
      '--kubeconfig',
      e.kubeconfigs.writer,
      '--service-account-private-key-file',
      e.serviceAccountKeyFile,
      '--root-ca-file',
      e.caFile,
    ]),
    service('reconciler-rc', 'reconcilerRc', ['--redis-url', e.redis]),
    service('reconciler-endpoint', 'reconcilerEndpoint', []),
    service('reconciler-node', 'reconcilerNode', []),
    service('reconciler-namespace', 'reconcilerNamespace', ['--root-ca-file', e.caFile]),
  ];
}

/** metricsUrls lists where each service's /metrics is, for the run command's summary. */
export function metricsUrls(c: StackConfig, parts: readonly Part[]): string[] {
  const width = Math.max(23, ...parts.map((p) => p.name.length + ' /metrics'.length));
  return parts.map(
    (p) => `  ${`${p.name} /metrics`.padEnd(width)} http://${c.host}:${c.ports[p.ports[0] ?? 'watcher']}/metrics`,
  );
}
