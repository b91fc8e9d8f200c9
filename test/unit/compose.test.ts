import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
/** SERVICES are the five services. */
const SERVICES = ['watcher', 'writer', 'reconciler-rc', 'reconciler-endpoint', 'reconciler-node'];

type ComposeService = { build?: { context: string; dockerfile: string }; environment?: Record<string, string>; image?: string };
type Compose = { services: Record<string, ComposeService> };
type Manifest = { name: string; dependencies?: Record<string, string> };

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;
const rootManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
const workspaces = new Map(rootManifest.workspaces.flatMap((pattern) => globSync(join(pattern, 'package.json'), { cwd: ROOT }))
  .map((file) => [(JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Manifest).name, dirname(file)]));

/** workspaceClosure is a workspace and every workspace it depends on at run time, transitively (folders). */
function workspaceClosure(dir: string, seen = new Set<string>()): Set<string> {
  if (seen.has(dir)) return seen;
  seen.add(dir);
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;
  for (const dep of Object.keys(manifest.dependencies ?? {})) {
    const depDir = workspaces.get(dep);
    if (depDir !== undefined) workspaceClosure(depDir, seen);
  }
  return seen;
}

describe('docker-compose.yml and the Dockerfiles (no Docker engine runs here, so they are checked as files)', () => {
  it('runs Kafka in KRaft mode, a schema registry, Redis and every built service, and nothing that is not built', () => {
    for (const name of ['kafka', 'registry', 'redis', ...SERVICES]) assert.ok(compose.services[name], `service ${name}`);
    assert.equal(compose.services['kafka']?.environment?.['KAFKA_PROCESS_ROLES'], 'broker,controller');
    const built = Object.entries(compose.services).filter(([, s]) => s.build).map(([n]) => n).sort();
    assert.deepEqual(built, [...SERVICES].sort());
  });

  for (const name of SERVICES) {
    it(`builds ${name}: every workspace manifest for npm ci, the sources of its workspaces, a command that exists, non-root, Node 24`, () => {
      const service = compose.services[name];
      assert.ok(service?.build, `${name} has a build section`);
      const context = join(ROOT, service.build.context);
      const text = readFileSync(join(context, service.build.dockerfile), 'utf8');
      assert.match(text, /^FROM node:24\b/m);
      assert.match(text, /^USER (?!root\b)\S+/m);
      const copied = [...text.matchAll(/^COPY (.+) \S+$/gm)].flatMap(([, sources]) => (sources ?? '').split(' '));
      for (const source of copied) assert.ok(existsSync(join(context, source)), `${name}: COPY ${source} exists`);
      for (const dir of workspaces.values()) assert.ok(copied.includes(`${dir}/package.json`), `${name}: copies ${dir}/package.json (npm ci needs every workspace)`);
      for (const dir of workspaceClosure(`services/${name}`)) assert.ok(copied.includes(dir), `${name}: copies the sources of ${dir}`);
      const command = JSON.parse(/^CMD (\[.*\])$/m.exec(text)?.[1] ?? '[]') as string[];
      const script = command.find((arg) => arg.endsWith('.ts'));
      assert.ok(script !== undefined && existsSync(join(context, script)), `${name}: the command's target ${script} exists`);
      assert.equal(service.environment?.['KCM_BUS_KAFKA_BROKERS'], 'kafka:9092');
    });
  }
});
