import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stackConfig } from './config.ts';
import { clusterId, kafkaLaunch } from './kafka-part.ts';
import { assertFormattedBy, compareVersions } from './kafka-upgrade.ts';
import { kafkaRelease } from './kafka-versions.ts';

describe('clusterId', () => {
  it('draws 22-character base64url ids that never start with "-" (StorageTool would read one as an option)', () => {
    const ids = Array.from({ length: 2000 }, clusterId);
    assert.ok(
      ids.every((id) => /^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/.test(id)),
      ids.find((id) => !/^[A-Za-z0-9_]/.test(id)),
    );
  });
});

describe('kafkaLaunch: one recipe per major', () => {
  const c = stackConfig('unit', { KCM_BUS_RUN_DIR: '/run/unit' });
  const b = { dirs: new Map([['kafka', '/cache/kafka/X']]), redisServer: '' };

  it('points Kafka 4 at a log4j2 file (Kafka 4 has no log4j 1.x) and Kafka 3.9 at a log4j 1.x file, both in the state', () => {
    assert.ok(
      kafkaLaunch(c, b, kafkaRelease('4.4.0')).args.includes(
        '-Dlog4j2.configurationFile=file:/run/unit/kafka/log4j2.properties',
      ),
    );
    assert.ok(
      kafkaLaunch(c, b, kafkaRelease('3.9.1')).args.includes(
        '-Dlog4j.configuration=file:/run/unit/kafka/log4j.properties',
      ),
    );
  });

  it("runs kafka.Kafka on the obtained release's jars with the stack's server.properties", () => {
    const args = kafkaLaunch(c, b, kafkaRelease('4.4.0')).args;
    assert.deepEqual(args.slice(-4), [
      '-cp',
      '/cache/kafka/X/libs/*',
      'kafka.Kafka',
      '/run/unit/kafka/server.properties',
    ]);
  });
});

describe("assertFormattedBy: a stack's storage goes forward from the release that formatted it, never back", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  /** formatted is a node's state folder whose storage a release formatted (undefined: before the version file). */
  const formatted = (version: string | undefined): string => {
    const dir = mkdtempSync(join(tmpdir(), 'kcm-bus-kafka-state-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'data'), { recursive: true });
    if (version) writeFileSync(join(dir, 'version'), `${version}\n`);
    return dir;
  };

  it('passes a storage formatted by the same release', () => {
    assertFormattedBy(formatted('4.4.0'), kafkaRelease('4.4.0'));
  });

  it('refuses another release, saying how to purge or which version to pick', () => {
    assert.throws(
      () => assertFormattedBy(formatted('4.4.0'), kafkaRelease('3.9.1')),
      /formatted by Kafka 4\.4\.0, not 3\.9\.1: run `down --purge` once .* or set KCM_BUS_KAFKA_VERSION=4\.4\.0/,
    );
  });

  it("takes a storage without a version file for 3.9.1's, the only Kafka the stack ran before it recorded one", () => {
    assertFormattedBy(formatted(undefined), kafkaRelease('3.9.1'));
  });

  it("lets a newer release start on an older one's storage: Kafka's documented upgrade, finalized once it runs", () => {
    assertFormattedBy(formatted('3.9.1'), kafkaRelease('4.4.0'));
    assertFormattedBy(formatted(undefined), kafkaRelease('4.4.0'));
  });

  it('orders versions by number, not by text', () => {
    assert.ok(compareVersions('3.9.1', '4.4.0') < 0);
    assert.ok(compareVersions('4.10.0', '4.4.0') > 0);
    assert.equal(compareVersions('4.4.0', '4.4.0'), 0);
  });
});
