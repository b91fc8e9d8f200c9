import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { SERVICE_MALLOC_ENV, SERVICE_NODE_ARGS } from '@kcm-bus/runtime/service/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** SERVICES are the five services. */
const SERVICES = [
  'watcher',
  'writer',
  'reconciler-rc',
  'reconciler-endpoint',
  'reconciler-node',
  'reconciler-namespace',
];

type ComposeService = {
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string | number>;
  image?: string;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
};
type Compose = { services: Record<string, ComposeService> };

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;
describe('docker-compose.yml and the Dockerfiles (no Docker engine runs here, so they are checked as files)', () => {
  it('runs Kafka in KRaft mode, a schema registry, Redis and every built service, and nothing that is not built', () => {
    for (const name of ['kafka', 'registry', 'redis', ...SERVICES])
      assert.ok(compose.services[name], `service ${name}`);
    assert.equal(compose.services['kafka']?.environment?.['KAFKA_PROCESS_ROLES'], 'broker,controller');
    const built = Object.entries(compose.services)
      .filter(([, s]) => s.build)
      .map(([n]) => n)
      .sort();
    assert.deepEqual(built, [...SERVICES].sort());
  });

  for (const name of SERVICES) {
    it(`builds ${name}: from sources that exist (its COPY lines are generated: npm run generate), a command that exists, started as every launcher starts a service, non-root, Node 24`, () => {
      const service = compose.services[name];
      assert.ok(service?.build, `${name} has a build section`);
      const context = join(ROOT, service.build.context);
      const text = readFileSync(join(context, service.build.dockerfile), 'utf8');
      assert.match(text, /^FROM node:24\b/m);
      assert.match(text, /^USER (?!root\b)\S+/m);
      const copied = [...text.matchAll(/^COPY (.+) \S+$/gm)].flatMap(([, sources]) => (sources ?? '').split(' '));
      for (const source of copied) assert.ok(existsSync(join(context, source)), `${name}: COPY ${source} exists`);
      const command = JSON.parse(/^CMD (\[.*\])$/m.exec(text)?.[1] ?? '[]') as string[];
      const script = command.at(-1);
      assert.ok(
        script !== undefined && existsSync(join(context, script)),
        `${name}: the command's target ${script} exists`,
      );
      assert.deepEqual(
        command,
        ['node', ...SERVICE_NODE_ARGS, script],
        `${name}: node's flags as every launcher sets them`,
      );
      assert.equal(service.environment?.['KCM_BUS_KAFKA_BROKERS'], 'kafka:9092');
      for (const [name, value] of Object.entries(SERVICE_MALLOC_ENV))
        assert.match(text, new RegExp(`^ENV .*\\b${name}=${value}\\b`, 'm'), `${name} as every launcher sets it`);
    });
  }

  it('gives every kcm-bus variable of a service to a flag that service declares (its --help lists it)', () => {
    for (const name of SERVICES) {
      const help = spawnSync(process.execPath, [join(ROOT, `services/${name}/src/main.ts`), '--help'], {
        encoding: 'utf8',
        timeout: 30_000,
      }).stdout;
      for (const variable of Object.keys(compose.services[name]?.environment ?? {}).filter((v) =>
        v.startsWith('KCM_BUS_'),
      )) {
        assert.ok(help.includes(`(${variable}, default `), `${name}: ${variable} is one of its flags`);
      }
    }
  });

  it("keeps the registry's schemas across a restart: KafkaSQL storage on the compose Kafka, whose data is a volume", () => {
    const registry = compose.services['registry']!;
    assert.equal(registry.environment?.['APICURIO_STORAGE_KIND'], 'kafkasql');
    assert.equal(registry.environment?.['APICURIO_KAFKASQL_BOOTSTRAP_SERVERS'], 'kafka:9092');
    assert.equal(registry.depends_on?.['kafka']?.condition, 'service_healthy');
    const kafka = compose.services['kafka']!;
    assert.ok(
      kafka.volumes?.some((v) => v.endsWith(`:${kafka.environment?.['KAFKA_LOG_DIRS']}`)),
      "Kafka's log dirs are the mounted volume",
    );
  });

  it('starts a reconciler only once the watcher (its topics) and the writer are ready, and restarts what fails', () => {
    for (const name of SERVICES) {
      const service = compose.services[name]!;
      assert.match(service.healthcheck?.test.join(' ') ?? '', /\/readyz/, `${name} has a /readyz healthcheck`);
      assert.match(service.restart ?? '', /^(on-failure|unless-stopped|always)$/, `${name} is restarted when it exits`);
      for (const [dep, { condition }] of Object.entries(service.depends_on ?? {})) {
        if (condition === 'service_healthy')
          assert.ok(compose.services[dep]?.healthcheck, `${name} waits for ${dep}'s healthcheck, which exists`);
      }
    }
    for (const name of SERVICES.filter((n) => n.startsWith('reconciler-'))) {
      for (const dep of ['watcher', 'writer', 'kafka', 'registry'])
        assert.equal(
          compose.services[name]?.depends_on?.[dep]?.condition,
          'service_healthy',
          `${name} waits for ${dep}`,
        );
    }
    assert.equal(compose.services['reconciler-rc']?.environment?.['KCM_BUS_REDIS_URL'], 'redis://redis:6379');
  });

  it('lets the host reach Kafka (kcat -b localhost:9092): an EXTERNAL listener advertised as localhost:9092 beside the internal one', () => {
    const env = compose.services['kafka']!.environment ?? {};
    const listeners = new Map(
      String(env['KAFKA_LISTENERS'])
        .split(',')
        .map((l) => [l.split('://')[0], l.split(':').at(-1)]),
    );
    const advertised = String(env['KAFKA_ADVERTISED_LISTENERS']).split(',');
    assert.ok(advertised.includes('PLAINTEXT://kafka:9092') && advertised.includes('EXTERNAL://localhost:9092'));
    assert.ok(
      compose.services['kafka']!.ports?.includes(`9092:${listeners.get('EXTERNAL')}`),
      'host port 9092 is the EXTERNAL listener',
    );
    for (const name of listeners.keys())
      assert.match(String(env['KAFKA_LISTENER_SECURITY_PROTOCOL_MAP']), new RegExp(`(^|,)${name}:`));
  });
});
