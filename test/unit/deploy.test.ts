import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { RECONCILER_SERVICES } from '@kcm-bus/catalog/controllers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BASE = join(ROOT, 'deploy/kustomize/base');

type Container = {
  image: string;
  command: string[];
  args: string[];
  env: { name: string }[];
  securityContext: Record<string, unknown>;
  livenessProbe: Probe;
  readinessProbe: Probe;
  ports: { name: string; containerPort: number }[];
  resources: { requests: object; limits: object };
};
type Probe = { httpGet: { path: string; port: string } };
type Resource = { kind: string; spec?: Deployment };
type Deployment = {
  replicas: number;
  strategy?: { type: string };
  template: { metadata: { annotations: Record<string, string> }; spec: PodSpec };
};
type PodSpec = {
  serviceAccountName: string;
  automountServiceAccountToken?: boolean;
  securityContext: Record<string, unknown>;
  containers: Container[];
  volumes?: unknown[];
};

const load = (file: string): Resource[] =>
  parseAllDocuments(readFileSync(join(BASE, file), 'utf8')).map((d) => d.toJSON() as Resource);
const SERVICES = ['watcher', 'writer', ...RECONCILER_SERVICES] as const;
const deployment = (service: string): Deployment => load(`${service}.yaml`).find((r) => r.kind === 'Deployment')!.spec!;
const container = (service: string): Container => deployment(service).template.spec.containers[0]!;

const helped = new Map<string, Set<string>>();
/** flagsOf are the flags a service takes, as its --help prints them (the runtime's and its own). */
function flagsOf(service: string): Set<string> {
  if (!helped.has(service)) {
    const run = spawnSync(process.execPath, [join(ROOT, `services/${service}/src/main.ts`), '--help'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    helped.set(service, new Set([...run.stdout.matchAll(/^\s+--([a-z0-9-]+) \(KCM_BUS_/gm)].map((m) => m[1]!)));
  }
  return helped.get(service)!;
}
const envFlag = (name: string): string =>
  name
    .replace(/^KCM_BUS_/, '')
    .toLowerCase()
    .replace(/_/g, '-');

describe('deploy/kustomize/base: the manifests say what the code does', () => {
  for (const service of SERVICES) {
    it(`given ${service}'s Deployment, then it runs its image's command with flags the service takes, its probes and metrics on 0.0.0.0:9090`, () => {
      const c = container(service);
      assert.equal(c.image, `kcm-bus/${service}`);
      const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(ROOT, `services/${service}/Dockerfile`), 'utf8'))?.[1];
      assert.deepEqual(c.command, JSON.parse(cmd ?? '[]'), "the Dockerfile's CMD");
      const flags = flagsOf(service);
      for (const arg of c.args)
        assert.ok(flags.has(/^--([a-z0-9-]+)=/.exec(arg)?.[1] ?? ''), `${service} takes ${arg}`);
      for (const { name } of c.env) assert.ok(flags.has(envFlag(name)), `${service} reads ${name}`);
      assert.ok(
        c.env.some(
          (e) => e.name === 'KCM_BUS_METRICS_BIND_ADDRESS' && (e as { value?: string }).value === '0.0.0.0:9090',
        ),
      );
      assert.deepEqual(
        [c.livenessProbe.httpGet, c.readinessProbe.httpGet],
        [
          { path: '/healthz', port: 'metrics' },
          { path: '/readyz', port: 'metrics' },
        ],
      );
      assert.deepEqual(c.ports, [{ name: 'metrics', containerPort: 9090 }]);
      assert.deepEqual(deployment(service).template.metadata.annotations, {
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9090',
        'prometheus.io/path': '/metrics',
      });
      assert.ok(c.resources.requests && c.resources.limits);
    });

    it(`given ${service}'s pod, then it runs as non-root, read-only, without capabilities, under RuntimeDefault seccomp`, () => {
      const pod = deployment(service).template.spec;
      assert.deepEqual(
        [pod.securityContext['runAsNonRoot'], pod.securityContext['seccompProfile']],
        [true, { type: 'RuntimeDefault' }],
      );
      assert.deepEqual(container(service).securityContext, {
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
    });
  }

  it("given the bus endpoints' ConfigMap, then every variable in it is a flag every service takes", () => {
    const kustomization = parseAllDocuments(readFileSync(join(BASE, 'kustomization.yaml'), 'utf8'))[0]!.toJSON() as {
      configMapGenerator: { literals: string[] }[];
    };
    const names = kustomization.configMapGenerator.flatMap((g) => g.literals.map((l) => l.split('=')[0]!));
    for (const service of SERVICES)
      for (const name of names) assert.ok(flagsOf(service).has(envFlag(name)), `${service} reads ${name}`);
  });

  it('given replicas and identities, then the watcher and the writer run one pod each (Recreate) with their accounts, the reconcilers several with none; the watcher mounts the digest key alone', () => {
    for (const service of ['watcher', 'writer']) {
      const d = deployment(service);
      assert.deepEqual(
        [d.replicas, d.strategy?.type, d.template.spec.serviceAccountName],
        [1, 'Recreate', `kcm-bus-${service}`],
      );
    }
    for (const service of RECONCILER_SERVICES) {
      const d = deployment(service);
      assert.ok(d.replicas >= 2, service);
      assert.deepEqual(
        [d.template.spec.serviceAccountName, d.template.spec.automountServiceAccountToken],
        ['kcm-bus-reconciler', false],
      );
    }
    const secretsOf = (service: string): unknown[] =>
      ((deployment(service).template.spec.volumes ?? []) as { secret?: { secretName: string } }[]).map(
        (v) => v.secret?.secretName,
      );
    assert.deepEqual(secretsOf('watcher'), ['kcm-bus-secret-digest'], 'the watcher signs nothing');
    assert.ok(
      RECONCILER_SERVICES.every((s) => !secretsOf(s).includes('kcm-bus-service-account-key')),
      "the token key is the writer's alone",
    );
    assert.ok(secretsOf('writer').includes('kcm-bus-service-account-key'));
  });
});
