import type { ContentCheck, ContentRule, ObjectKind, PatchShape } from '@kcm-bus/runtime/catalog/index.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { patchFields, patchOps, patchType, type Written } from './patch-checks.ts';
import { isJsonObject, type JsonObject, jsonField as fieldOf, pointerWithin } from './patch-shape.ts';

/*
 * The one interpreter of the catalog's content rules (ContentRule in packages/runtime/src/catalog/entry.ts): each
 * check is implemented once, here or, a Patch's, in patch-checks.ts, and a controller's rule is data in its catalog
 * entry, so a new controller adds no code to the writer. Mutations reach it validated: bodies and patches parse as
 * JSON, but are otherwise untrusted.
 */

/** REFS is where a json patch writes owner references (AdoptPod, ReleasePod). */
const REFS: PatchShape = { metadata: { ownerReferences: true } };

function writtenBy(m: Mutation): Written {
  if (m.verb !== 'Patch') return { m, object: parse(m.body), ops: undefined };
  if (m.patchType !== 'json') return { m, object: parse(m.patch), ops: undefined };
  const ops = parse(m.patch);
  return { m, object: undefined, ops: Array.isArray(ops) ? ops : 'a json patch that is not a list of operations' };
}

const parse = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));
const metaOf = (w: Written): JsonObject => {
  const meta = fieldOf(w.object, 'metadata');
  return isJsonObject(meta) ? meta : {};
};
const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const isRefTo =
  (kind: ObjectKind) =>
  (ref: unknown): boolean =>
    fieldOf(ref, 'apiVersion') === kind.apiVersion && fieldOf(ref, 'kind') === kind.kind;

const withArticle = (word: string): string => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

/** aTarget names the target as refusals do: its kind's last word in lower case, with its article (a pod, a slice). */
function aTarget(w: Written): string {
  const kind = w.m.target.kind;
  return withArticle((/[A-Z][a-z0-9]*$/.exec(kind)?.[0] ?? kind).toLowerCase());
}

function namespace(w: Written): string | undefined {
  const ns = metaOf(w)['namespace'];
  const target = w.m.target.namespace;
  return ns === undefined || ns === target
    ? undefined
    : `${aTarget(w)} of namespace ${JSON.stringify(ns)} in ${target ?? ''}`;
}

function name(w: Written, equals: string): string | undefined {
  return metaOf(w)['name'] === equals ? undefined : `${aTarget(w)} not named ${JSON.stringify(equals)}`;
}

function label(w: Written, key: string, equals: string | undefined): string | undefined {
  const value = fieldOf(metaOf(w)['labels'], key);
  if (equals === undefined) return typeof value === 'string' ? undefined : `${aTarget(w)} not labelled ${key}`;
  return value === equals ? undefined : `${aTarget(w)} not labelled ${key}=${equals}`;
}

/**
 * keyName is the name the mutation's reconcile key (`namespace/name`, or `name`) gives its object; a mutation without
 * a key names none, so a check bound to the key refuses it.
 */
export const keyName = (m: Mutation): string | undefined => m.reconcileKey?.slice(m.reconcileKey.indexOf('/') + 1);

type RefCheck = Extract<ContentCheck, { readonly check: 'controllerRef' }>;

/** controllerRef: one controller reference (GetControllerOf finds the first; two are refused), of kind, named so. */
function controllerRef(w: Written, c: RefCheck): string | undefined {
  const meta = metaOf(w);
  const controllers = listOf(meta['ownerReferences']).filter((r) => fieldOf(r, 'controller') === true);
  const [ref] = controllers;
  const one = controllers.length === 1 && isRefTo(c.kind)(ref);
  if (c.namedByKey)
    return one && fieldOf(ref, 'name') === keyName(w.m)
      ? undefined
      : `${aTarget(w)} whose controller is not the ${c.kind.kind} its key names`;
  if (c.nameLabel === undefined) return one ? undefined : `${aTarget(w)} whose controller is not one ${c.kind.kind}`;
  const named = fieldOf(meta['labels'], c.nameLabel);
  return one && typeof named === 'string' && fieldOf(ref, 'name') === named
    ? undefined
    : `${aTarget(w)} whose controller is not the one ${c.kind.kind} its ${c.nameLabel} label names`;
}

/** keyObject: the mutation writes the object its reconcile key names (same namespace and name). */
function keyObject(w: Written): string | undefined {
  const { namespace, name } = w.m.target;
  const key = namespace === null ? name : `${namespace}/${name}`;
  return key === w.m.reconcileKey ? undefined : `${aTarget(w)} its key (${w.m.reconcileKey ?? 'none'}) does not name`;
}

/**
 * refsWritten are the owner references a mutation writes: those of the object it writes, or the values a json patch
 * adds or replaces under REFS (a whole list, or one reference), or why there are none to read.
 */
function refsWritten(w: Written): readonly unknown[] | string {
  if (w.ops === undefined) return listOf(metaOf(w)['ownerReferences']);
  if (typeof w.ops === 'string') return w.ops;
  const writes = (o: unknown): boolean => ['add', 'replace'].includes(String(fieldOf(o, 'op')));
  return w.ops
    .filter((o) => writes(o) && pointerWithin(fieldOf(o, 'path'), REFS))
    .flatMap((o) => {
      const value = fieldOf(o, 'value');
      return Array.isArray(value) ? value : [value];
    });
}

function ownerReferences(w: Written, kind: ObjectKind, namedByKey: boolean): string | undefined {
  const refs = refsWritten(w);
  if (typeof refs === 'string') return refs;
  if (!refs.every(isRefTo(kind))) return `an owner reference that is not ${withArticle(kind.kind)}`;
  const name = keyName(w.m);
  return !namedByKey || refs.every((r) => fieldOf(r, 'name') === name)
    ? undefined
    : `an owner reference to another ${kind.kind} than its key names`;
}

function conditionTypes(w: Written, types: readonly string[]): string | undefined {
  const written = listOf(fieldOf(fieldOf(w.object, 'status'), 'conditions')).map((c) => fieldOf(c, 'type'));
  const i = written.findIndex((t) => typeof t !== 'string' || !types.includes(t));
  if (i < 0) return undefined;
  const type = written[i];
  return `${aTarget(w)} condition ${typeof type === 'string' ? `of type ${JSON.stringify(type)}` : 'without a type'}`;
}

function refusalOf(c: ContentCheck, w: Written): string | undefined {
  switch (c.check) {
    case 'namespace':
      return namespace(w);
    case 'name':
      return name(w, c.equals);
    case 'label':
      return label(w, c.key, c.equals);
    case 'controllerRef':
      return controllerRef(w, c);
    case 'ownerReferences':
      return ownerReferences(w, c.kind, c.namedByKey === true);
    case 'keyObject':
      return keyObject(w);
    case 'conditionTypes':
      return conditionTypes(w, c.types);
    case 'patchType':
      return patchType(w, c.types);
    case 'patchFields':
      return patchFields(w, c.fields);
    case 'patchOps':
      return patchOps(w, c.ops);
  }
}

/** refusalIn is the first check of the rule that fails on what the mutation writes, as `w` reads it. */
function refusalIn(rule: ContentRule, w: Written): string | undefined {
  for (const check of rule) {
    const why = refusalOf(check, w);
    if (why !== undefined) return why;
  }
  return undefined;
}

/**
 * objectRefusal runs a rule's checks on an object the writer read from the API in place of what the mutation writes:
 * a live check asks of the object as it is now what a content rule asks of the object a mutation writes.
 */
export function objectRefusal(rule: ContentRule, m: Mutation, object: unknown): string | undefined {
  return refusalIn(rule, { m, object, ops: undefined });
}

/**
 * ruleRefusal says why a mutation breaks a content rule, from the first check that fails (`a pod whose controller is
 * not one ReplicationController`), or undefined when every check holds.
 */
export function ruleRefusal(rule: ContentRule, m: Mutation): string | undefined {
  return refusalIn(rule, writtenBy(m));
}
