import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';
import {
  MUTATION_VERBS,
  type Mutation,
  type MutationVerb,
  qualifiedResource,
  subresourceOf,
} from '@kcm-bus/runtime/mutation/index.ts';

/**
 * AllowRule is one (controller, verb, resource) triple the writer will perform. resource is kubectl's
 * `resource[.group][/subresource]` (`pods`, `pods/status`, `leases.coordination.k8s.io`): an UpdateStatus of pods
 * is `pods/status`, a RecordEvent is `events`.
 */
export type AllowRule = { readonly controller: string; readonly verb: MutationVerb; readonly resource: string };

/** Allowlist is the writer's least-privilege table: anything not in it is Refused, never sent. */
export type Allowlist = readonly AllowRule[];

/** AllowlistEntry is one entry of the config file: a controller may perform these verbs on this resource. */
export type AllowlistEntry = {
  readonly controller: string;
  readonly resource: string;
  readonly verbs: readonly MutationVerb[];
};

/** AllowlistError names the config file, the JSON path of the bad part and what is wrong with it. */
export class AllowlistError extends Error {
  override readonly name = 'AllowlistError';
}

const RESOURCE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\/[a-z]+)?$/;

/**
 * DEFAULT_ALLOWLIST_ENTRIES are the catalog's grants (packages/catalog/src/controllers.ts): each controller
 * may perform exactly what upstream's does, and the stack's `kcm-bus:writer` ClusterRole permits no more.
 */
export const DEFAULT_ALLOWLIST_ENTRIES: readonly AllowlistEntry[] = CONTROLLERS.flatMap((c) =>
  c.grants.map((g) => ({ controller: c.name, resource: g.resource, verbs: g.verbs })),
);

/** DEFAULT_ALLOWLIST is DEFAULT_ALLOWLIST_ENTRIES as triples: the writer's table when no --allowlist is given. */
export const DEFAULT_ALLOWLIST: Allowlist = toRules(DEFAULT_ALLOWLIST_ENTRIES);

/** toRules expands entries into (controller, verb, resource) triples. */
export function toRules(entries: readonly AllowlistEntry[]): Allowlist {
  return entries.flatMap((e) => e.verbs.map((verb) => ({ controller: e.controller, verb, resource: e.resource })));
}

/**
 * parseAllowlist reads an allowlist file, `{"allow": [{"controller", "resource", "verbs": [...]}]}`, and throws an
 * AllowlistError naming `source`, the JSON path (`allow[2].verbs[0]`) and the problem when it is malformed.
 */
export function parseAllowlist(text: string, source: string): Allowlist {
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (err) {
    throw new AllowlistError(`${source}: not JSON (${(err as Error).message})`);
  }
  const allow = (config as { allow?: unknown } | null)?.allow;
  if (!Array.isArray(allow))
    throw new AllowlistError(`${source}: allow: missing or not an array of {controller, resource, verbs}`);
  return toRules(allow.map((item: unknown, i) => readEntry(item, `${source}: allow[${i}]`)));
}

function readEntry(item: unknown, path: string): AllowlistEntry {
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    throw new AllowlistError(`${path}: not an object {controller, resource, verbs}`);
  const { controller, resource, verbs } = item as Record<string, unknown>;
  if (typeof controller !== 'string' || controller === '')
    throw new AllowlistError(`${path}.controller: missing or not a string`);
  if (typeof resource !== 'string' || !RESOURCE.test(resource)) {
    throw new AllowlistError(
      `${path}.resource: ${JSON.stringify(resource)} is not resource[.group][/subresource], e.g. "pods/status"`,
    );
  }
  if (!Array.isArray(verbs) || verbs.length === 0)
    throw new AllowlistError(`${path}.verbs: missing or not a non-empty array`);
  verbs.forEach((verb: unknown, j) => {
    if (!(MUTATION_VERBS as readonly unknown[]).includes(verb)) {
      throw new AllowlistError(
        `${path}.verbs[${j}]: ${JSON.stringify(verb)} is not one of ${MUTATION_VERBS.join(', ')}`,
      );
    }
  });
  return { controller, resource, verbs: verbs as MutationVerb[] };
}

/** resourceOf is the allowlist resource a mutation writes: `pods/status` for an UpdateStatus of a pod. */
export function resourceOf(m: Pick<Mutation, 'verb' | 'target'>): string {
  const sub = subresourceOf(m);
  return sub === null ? qualifiedResource(m.target) : `${qualifiedResource(m.target)}/${sub}`;
}

/** allows is true when the list grants the mutation's controller its verb on its resource. */
export function allows(list: Allowlist, m: Pick<Mutation, 'controller' | 'verb' | 'target'>): boolean {
  const resource = resourceOf(m);
  return list.some((r) => r.controller === m.controller && r.verb === m.verb && r.resource === resource);
}
