import type { PodTemplateSpec } from '@kcm-bus/k8s/core-v1.ts';

/*
 * Upstream names a Deployment's ReplicaSets `<deployment>-<hash>`, the hash (controller.ComputeHash) being fnv32a
 * over a spew dump of the Go PodTemplateSpec, which no other language can reproduce. Ours is fnv32a over a canonical
 * JSON of the template, encoded as upstream's (rand.SafeEncodeString of the decimal sum), so our names differ from
 * upstream's but look alike and are as stable. Nothing relies on names matching: FindNewReplicaSet and adoption
 * compare templates (equalIgnoreHash), so ReplicaSets created by upstream's controller stay the Deployment's.
 */

/** POD_TEMPLATE_HASH is apps.DefaultDeploymentUniqueLabelKey, the label each ReplicaSet's pods carry its hash in. */
export const POD_TEMPLATE_HASH = 'pod-template-hash';

/** DNS1123_SUBDOMAIN_MAX_LENGTH is validation.DNS1123SubdomainMaxLength, the longest valid object name. */
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

/** SAFE_ALPHANUMS is rand's alphabet: no vowels, no 0, 1 or 3, so that no encoding spells a word. */
const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * canonical is a JSON value as apimachinery's Semantic.DeepEqual sees it: object keys sorted, and null, empty
 * arrays and empty objects left out, as a nil and an empty slice or map are alike to it. Array order is kept.
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.keys(value)
    .sort()
    .map((k): [string, unknown] => [k, canonical((value as Record<string, unknown>)[k])])
    .filter(([, v]) => !isEmpty(v));
  return Object.fromEntries(entries);
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

/** canonicalJson is a template's canonical form as text: what the hash reads and templates are compared by. */
function canonicalJson(template: PodTemplateSpec | undefined): string {
  return JSON.stringify(canonical(template ?? {})) ?? '';
}

/** fnv32a is the 32-bit FNV-1a hash (hash/fnv's New32a) of bytes, continuing from `hash`. */
function fnv32a(bytes: Uint8Array, hash = 0x811c9dc5): number {
  let h = hash;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

/** safeEncodeString mirrors rand.SafeEncodeString: each character mapped into SAFE_ALPHANUMS by its code. */
function safeEncodeString(s: string): string {
  return [...s].map((c) => SAFE_ALPHANUMS[c.charCodeAt(0) % SAFE_ALPHANUMS.length]).join('');
}

/**
 * computeHash is our controller.ComputeHash: fnv32a over the template's canonical JSON, then, when a collisionCount
 * is set, over its 8 little-endian bytes (upstream's encoding of it), encoded with SafeEncodeString.
 */
export function computeHash(template: PodTemplateSpec | undefined, collisionCount: number | null | undefined): string {
  let h = fnv32a(new TextEncoder().encode(canonicalJson(template)));
  if (collisionCount != null) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(bytes, h);
  }
  return safeEncodeString(String(h));
}

/** withoutHashLabel is a template without its pod-template-hash label. */
function withoutHashLabel(template: PodTemplateSpec | undefined): PodTemplateSpec {
  const { [POD_TEMPLATE_HASH]: _hash, ...labels } = template?.metadata?.labels ?? {};
  return { ...template, metadata: { ...template?.metadata, labels } };
}

/**
 * equalIgnoreHash mirrors deploymentutil.EqualIgnoreHash: two templates are equal when they are semantically equal
 * once their pod-template-hash labels are removed (a ReplicaSet's template carries it, a Deployment's does not).
 */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  return canonicalJson(withoutHashLabel(a)) === canonicalJson(withoutHashLabel(b));
}

/**
 * generateReplicaSetName mirrors sync.go generateReplicaSetName: `<deployment>-<hash>`, the Deployment's name cut
 * so that the whole fits a DNS subdomain (253 characters).
 */
export function generateReplicaSetName(deploymentName: string, hash: string): string {
  const maxNameLength = DNS1123_SUBDOMAIN_MAX_LENGTH - 1 - hash.length;
  const name =
    deploymentName.length > maxNameLength && maxNameLength > 0
      ? deploymentName.slice(0, maxNameLength)
      : deploymentName;
  return `${name}-${hash}`;
}
