import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
const SERVICES = ['watcher', 'writer', 'reconciler-rc', 'reconciler-endpoint', 'reconciler-node'];

type ComposeService = { build?: { context: string; dockerfile: string }; environment?: Record<string, string>; image?: string };
type Compose = { services: Record<string, ComposeService> };

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;

describe('docker-compose.yml (no Docker engine runs here, so it is checked as a file)', () => {
  it('runs Kafka in KRaft mode, a schema registry, Redis and the five services', () => {
    for (const name of ['kafka', 'registry', 'redis', ...SERVICES]) assert.ok(compose.services[name], `service ${name}`);
    assert.equal(compose.services['kafka']?.environment?.['KAFKA_PROCESS_ROLES'], 'broker,controller');
  });

  for (const name of SERVICES) {
    it(`builds ${name} from a Dockerfile that exists, copies only what exists, and runs as non-root on Node 24`, () => {
      const service = compose.services[name];
      assert.ok(service?.build, `${name} has a build section`);
      const context = join(ROOT, service.build.context);
      const dockerfile = join(context, service.build.dockerfile);
      assert.ok(existsSync(dockerfile), `${dockerfile} exists`);
      const text = readFileSync(dockerfile, 'utf8');
      assert.match(text, /^FROM node:24\b/m);
      assert.match(text, /^USER (?!root\b)\S+/m);
      for (const [, sources] of text.matchAll(/^COPY (.+) \S+$/gm)) {
        for (const source of (sources ?? '').split(' ')) assert.ok(existsSync(join(context, source)), `${name}: COPY ${source} exists`);
      }
      assert.equal(service.environment?.['KCM_BUS_KAFKA_BROKERS'], 'kafka:9092');
    });
  }
});
