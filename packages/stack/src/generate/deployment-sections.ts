import { type CatalogEntry, CONTROLLERS, controllersOf, type ReconcilerService } from '@kcm-bus/catalog/controllers.ts';
import { DEFAULT_EXPECTATIONS_TTL_SECONDS } from '@kcm-bus/runtime/expectations/index.ts';
import { LOCAL_SIGNERS, signingFilesOf } from '../signing.ts';
import type { Sections } from './sections.ts';
import { yamlLines } from './yaml-text.ts';

const REDIS_SECRET = 'kcm-bus-redis';
const PUBLIC_SECRET = 'kcm-bus-signing-public';
const signerSecret = (signer: string): string => `kcm-bus-signer-${signer}`;

/** keepsExpectations: one of the controllers keeps expectations, so their service takes Redis and their flags. */
const keepsExpectations = (controllers: readonly CatalogEntry[]): boolean =>
  controllers.some((c) => c.parts.some((p) => p.expectations === true));

/** catalogFlags are the flags the catalog gives a service: each part's workers, expectations' TTL if it keeps them. */
function catalogFlags(service: ReconcilerService): readonly string[] {
  const controllers = controllersOf(service);
  const ttl = `--expectations-ttl-seconds=${DEFAULT_EXPECTATIONS_TTL_SECONDS}`;
  return [
    ...controllers.flatMap((c) => c.parts.map((p) => `--${p.workers.name}=${p.workers.default}`)),
    ...(keepsExpectations(controllers) ? [ttl] : []),
  ];
}

/** signingSources are what a service's --signing-dir volume projects: a Secret per private key, the public keys. */
function signingSources(service: 'writer' | ReconcilerService): readonly object[] {
  const { keys, trusted } = signingFilesOf(service);
  const secret = (name: string, files: readonly string[]): object => ({
    secret: { name, items: files.map((f) => ({ key: f, path: f })) },
  });
  const publicKeys = trusted.map((s) => `${s}.pub`);
  return [...keys.map((s) => secret(signerSecret(s), [`${s}.key`])), secret(PUBLIC_SECRET, publicKeys)];
}

/**
 * deploymentSections are the generated sections of a service's Deployment (deploy/kustomize/base/<service>.yaml):
 * `signing-keys`, the sources of its signing volume; for a reconciler also `catalog-flags` (in its args) and
 * `expectations-redis` (in its env: Redis's URL from its Secret, when one of its controllers keeps expectations).
 */
export function deploymentSections(service: 'writer' | ReconcilerService): Sections {
  const signing = { 'signing-keys': yamlLines(signingSources(service)) };
  if (service === 'writer') return signing;
  const redis = { name: 'KCM_BUS_REDIS_URL', valueFrom: { secretKeyRef: { name: REDIS_SECRET, key: 'url' } } };
  return {
    'catalog-flags': yamlLines(catalogFlags(service)),
    'expectations-redis': yamlLines(keepsExpectations(controllersOf(service)) ? [redis] : []),
    ...signing,
  };
}

/**
 * overlaySections are the generated section of the example overlay (deploy/kustomize/overlays/example): `secrets`, a
 * comment listing the Secrets the base mounts, which an operator makes (the optional bus credentials are not listed).
 */
export function overlaySections(): Sections {
  return {
    secrets: [
      ...LOCAL_SIGNERS.map((s) => `# - ${signerSecret(s)} (key ${s}.key)`),
      `# - ${PUBLIC_SECRET} (key <signer>.pub of each signer above)`,
      ...(keepsExpectations(CONTROLLERS) ? [`# - ${REDIS_SECRET} (key url: the Redis of the expectations)`] : []),
      "# - kcm-bus-secret-digest (key key: 32 random bytes or more, the watcher's and reconciler-namespace's digest key)",
      "# - kcm-bus-service-account-key (key key: the cluster's service-account signing key, PEM; the writer's alone)",
    ],
  };
}
