import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { controllersOf, RECONCILER_SERVICES } from '@kcm-bus/catalog/controllers.ts';
import { LOCAL_SIGNERS, signingFilesOf } from '../signing.ts';
import { deploymentSections, overlaySections } from './deployment-sections.ts';

/** section parses one generated section of a Deployment back to what it lists. */
function section<T>(service: Parameters<typeof deploymentSections>[0], name: string): T[] {
  return (parse(deploymentSections(service)[name]?.join('\n') ?? '') ?? []) as T[];
}

type Source = { secret: { name: string; items: { key: string; path: string }[] } };

describe("deploymentSections: the catalog's lines of each Deployment", () => {
  it("given reconciler-rc, whose controllers keep expectations, then its flags and env say so: workers, TTL, Redis's Secret", () => {
    assert.deepEqual(section('reconciler-rc', 'catalog-flags'), [
      '--concurrent-rc-syncs=5',
      '--concurrent-replicaset-syncs=5',
      '--concurrent-deployment-syncs=5',
      '--expectations-ttl-seconds=300',
    ]);
    assert.deepEqual(section('reconciler-rc', 'expectations-redis'), [
      { name: 'KCM_BUS_REDIS_URL', valueFrom: { secretKeyRef: { name: 'kcm-bus-redis', key: 'url' } } },
    ]);
  });

  it("given any reconciler, then it is given each part's workers flag at its default, and Redis only with expectations", () => {
    for (const service of RECONCILER_SERVICES) {
      const parts = controllersOf(service).flatMap((c) => c.parts);
      const expectations = parts.some((p) => p.expectations === true);
      assert.deepEqual(
        section<string>(service, 'catalog-flags').filter((f) => !f.startsWith('--expectations-')),
        parts.map((p) => `--${p.workers.name}=${p.workers.default}`),
        service,
      );
      assert.equal(section(service, 'expectations-redis').length, expectations ? 1 : 0, service);
    }
  });

  it('given the writer and each reconciler, then the signing volume holds its own keys and the public keys it trusts', () => {
    for (const service of ['writer', ...RECONCILER_SERVICES] as const) {
      const { keys, trusted } = signingFilesOf(service);
      const files = section<Source>(service, 'signing-keys').flatMap((s) =>
        s.secret.items.map((i) => `${s.secret.name}:${i.key}:${i.path}`),
      );
      assert.deepEqual(files, [
        ...keys.map((k) => `kcm-bus-signer-${k}:${k}.key:${k}.key`),
        ...trusted.map((t) => `kcm-bus-signing-public:${t}.pub:${t}.pub`),
      ]);
    }
    assert.deepEqual(Object.keys(deploymentSections('writer')), ['signing-keys']);
  });
});

describe("overlaySections: the example overlay's list of Secrets", () => {
  it("given the signers, then it names each one's Secret, the public keys', Redis's, the digest key's and the token key's", () => {
    const listed = (overlaySections()['secrets'] ?? []).map((l) => /^# - (\S+) \(/.exec(l)?.[1]);
    assert.deepEqual(listed, [
      ...LOCAL_SIGNERS.map((s) => `kcm-bus-signer-${s}`),
      'kcm-bus-signing-public',
      'kcm-bus-redis',
      'kcm-bus-secret-digest',
      'kcm-bus-service-account-key',
    ]);
  });
});
