import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';
import type { ContentRuleSpec, ObjectKind, PatchShape } from '@kcm-bus/runtime/catalog/index.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { resourceOf } from './allowlist.ts';

/*
 * A ContentRule checks what a mutation carries, beyond the allowlist's (controller, verb, resource): it answers why
 * the writer must refuse it, or undefined. The allowlist says the RC controller may create pods; a rule says which
 * pods. The catalog names each grant's rule (ContentRuleSpec); this file implements each kind of rule once.
 * Mutations reach the rules validated: bodies and patches parse as JSON.
 */

/** ContentRule answers why the writer must refuse a mutation for what it carries, or undefined. */
export type ContentRule = (m: Mutation) => string | undefined;

type OwnerRef = { readonly apiVersion?: unknown; readonly kind?: unknown; readonly controller?: unknown };
type JsonOp = { readonly op?: unknown; readonly path?: unknown; readonly value?: unknown };

const REFS = '/metadata/ownerReferences';

const isRefTo =
  (owner: ObjectKind) =>
  (r: unknown): boolean =>
    typeof r === 'object' &&
    r !== null &&
    (r as OwnerRef).apiVersion === owner.apiVersion &&
    (r as OwnerRef).kind === owner.kind;

/**
 * controlledBy: a controller creates only what it makes from its template (GetPodFromTemplate): an object of the
 * mutation's namespace whose one controller reference is of the owner's kind.
 */
const controlledBy =
  (owner: ObjectKind): ContentRule =>
  (m) => {
    const meta =
      (JSON.parse(m.body ?? '{}') as { metadata?: { namespace?: unknown; ownerReferences?: unknown } }).metadata ?? {};
    const what = m.target.kind.toLowerCase();
    if (meta.namespace !== undefined && meta.namespace !== m.target.namespace)
      return `a ${what} of namespace ${JSON.stringify(meta.namespace)} in ${m.target.namespace ?? ''}`;
    const refs = Array.isArray(meta.ownerReferences) ? (meta.ownerReferences as OwnerRef[]) : [];
    const controllers = refs.filter((r) => r.controller === true);
    return controllers.length === 1 && isRefTo(owner)(controllers[0])
      ? undefined
      : `a ${what} whose controller is not one ${owner.kind}`;
  };

/**
 * ownerReferences: a controller patches only owner references (AdoptPod and ReleasePod, as json patches), and writes
 * only references of its own kind.
 */
const ownerReferences =
  (owner: ObjectKind): ContentRule =>
  (m) => {
    if (m.patchType !== 'json')
      return `a ${m.patchType ?? 'missing'} patch (adoption and release are json patches of ${REFS})`;
    const ops = JSON.parse(m.patch ?? '[]') as unknown;
    if (!Array.isArray(ops)) return 'a json patch that is not a list of operations';
    const outside = (ops as JsonOp[]).find(
      (o) => typeof o.path !== 'string' || (o.path !== REFS && !o.path.startsWith(`${REFS}/`)),
    );
    if (outside) return `a patch of ${JSON.stringify(outside.path)}, outside ${REFS}`;
    const written = (ops as JsonOp[])
      .filter((o) => o.op === 'add' || o.op === 'replace')
      .flatMap((o) => (Array.isArray(o.value) ? (o.value as unknown[]) : [o.value]));
    return written.every(isRefTo(owner)) ? undefined : `an owner reference that is not a ${owner.kind}`;
  };

/** outsideShape names the first field of `value` the shape does not allow, or undefined. */
function outsideShape(value: unknown, shape: PatchShape, path = ''): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return path === '' ? '(not an object)' : undefined;
  for (const [field, inner] of Object.entries(value)) {
    const allowed = shape[field];
    if (allowed === undefined) return `${path}/${field}`;
    const deeper = allowed === true ? undefined : outsideShape(inner, allowed, `${path}/${field}`);
    if (deeper !== undefined) return deeper;
  }
  return undefined;
}

/** otherCondition names a condition the patch writes of another type than `type`, or undefined. */
function otherCondition(patch: unknown, type: string): string | undefined {
  const conditions = (patch as { status?: { conditions?: unknown } }).status?.conditions;
  const other = (Array.isArray(conditions) ? conditions : [])
    .map((c) => (c as { type?: unknown } | null)?.type)
    .find((t) => t !== type);
  return other === undefined ? undefined : `a pod condition of type ${JSON.stringify(other)}`;
}

/**
 * mergePatch: a strategic merge or merge patch setting no field outside the shape (node lifecycle's PatchNodeTaints
 * and reconcileNodeLabels; taint eviction's DisruptionTarget condition), of one condition type when one is named.
 */
const mergePatch =
  (fields: PatchShape, conditionType?: string): ContentRule =>
  (m) => {
    if (m.patchType !== 'strategic-merge' && m.patchType !== 'merge') return `a ${m.patchType ?? 'missing'} patch`;
    const patch = JSON.parse(m.patch ?? 'null') as unknown;
    const outside = outsideShape(patch, fields);
    if (outside !== undefined) return `a patch of ${outside}`;
    return conditionType === undefined ? undefined : otherCondition(patch, conditionType);
  };

const SERVICE_NAME = 'kubernetes.io/service-name';
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
const SERVICE: ObjectKind = { apiVersion: 'v1', kind: 'Service' };

/**
 * managedEndpointSlice: the endpointslice controller writes only its own slices: of the mutation's namespace,
 * labelled managed-by it, with one controller reference, to the v1 Service its service-name label names.
 */
const managedEndpointSlice =
  (managedBy: string): ContentRule =>
  (m) => {
    const meta =
      (
        JSON.parse(m.body ?? '{}') as {
          metadata?: { namespace?: unknown; labels?: Record<string, unknown>; ownerReferences?: unknown };
        }
      ).metadata ?? {};
    if (meta.namespace !== undefined && meta.namespace !== m.target.namespace)
      return `a slice of namespace ${JSON.stringify(meta.namespace)} in ${m.target.namespace ?? ''}`;
    if (meta.labels?.[MANAGED_BY] !== managedBy) return `a slice not labelled ${MANAGED_BY}=${managedBy}`;
    const controllers = (
      Array.isArray(meta.ownerReferences) ? (meta.ownerReferences as (OwnerRef & { name?: unknown })[]) : []
    ).filter((r) => r.controller === true);
    const service = meta.labels[SERVICE_NAME];
    const ok =
      controllers.length === 1 &&
      isRefTo(SERVICE)(controllers[0]) &&
      controllers[0]!.name === service &&
      typeof service === 'string';
    return ok ? undefined : `a slice whose controller is not the one Service its ${SERVICE_NAME} label names`;
  };

function ruleOf(spec: ContentRuleSpec): ContentRule {
  switch (spec.rule) {
    case 'controlled-by':
      return controlledBy(spec.owner);
    case 'owner-references':
      return ownerReferences(spec.owner);
    case 'merge-patch':
      return mergePatch(spec.fields, spec.conditionType);
    case 'managed-endpoint-slice':
      return managedEndpointSlice(spec.managedBy);
  }
}

/** CONTENT_RULES are the catalog's rules by `controller verb resource` (resource with its subresource, as the allowlist's). */
const CONTENT_RULES: ReadonlyMap<string, ContentRule> = new Map(
  CONTROLLERS.flatMap((c) =>
    c.grants.flatMap((g) => {
      const content = g.content;
      return content === undefined
        ? []
        : g.verbs.map((verb) => [`${c.name} ${verb} ${g.resource}`, ruleOf(content)] as const);
    }),
  ),
);

/** EVENT_KINDS are the kinds each controller records events about, as upstream's recorders do (the catalog's eventKinds). */
const EVENT_KINDS: ReadonlyMap<string, readonly string[]> = new Map(CONTROLLERS.map((c) => [c.name, c.eventKinds]));

/** eventAbout: an event (recorded alone or after a write) is about a kind its controller acts on. */
function eventAbout(m: Mutation): string | undefined {
  const kind = m.event?.involvedObject.kind;
  const kinds = EVENT_KINDS.get(m.controller);
  return kind === undefined || kinds === undefined || kinds.includes(kind)
    ? undefined
    : `record an event about a ${kind}`;
}

/** contentRefusal says why the writer refuses a mutation for what it carries, or undefined when it may go. */
export function contentRefusal(m: Mutation): string | undefined {
  const why = CONTENT_RULES.get(`${m.controller} ${m.verb} ${resourceOf(m)}`)?.(m);
  if (why !== undefined) return `${m.controller} may not ${m.verb} ${why}`;
  const event = eventAbout(m);
  return event === undefined ? undefined : `${m.controller} may not ${event}`;
}
