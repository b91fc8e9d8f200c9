import type { Mutation } from '@kcm-bus/runtime/mutation/mutation.ts';
import { NODE_CONTENT_RULES, type ContentRule } from './node-content-rules.ts';

/*
 * A ContentRule checks what a mutation carries, beyond the allowlist's (controller, verb, resource): it answers why
 * the writer must refuse it, or undefined. The allowlist says the RC controller may create pods; a rule says which
 * pods. Mutations reach the rules validated: bodies and patches parse as JSON.
 */

type OwnerRef = { readonly apiVersion?: unknown; readonly kind?: unknown; readonly controller?: unknown };
type JsonOp = { readonly op?: unknown; readonly path?: unknown; readonly value?: unknown };

const RC = 'replicationcontroller-controller';
const REFS = '/metadata/ownerReferences';

const isRcRef = (r: unknown): boolean => typeof r === 'object' && r !== null && (r as OwnerRef).apiVersion === 'v1' && (r as OwnerRef).kind === 'ReplicationController';

/**
 * rcPodCreate: the RC controller creates only what GetPodFromTemplate makes: a pod of the mutation's namespace whose
 * one controller reference is a v1 ReplicationController.
 */
const rcPodCreate: ContentRule = (m) => {
  const meta = (JSON.parse(m.body ?? '{}') as { metadata?: { namespace?: unknown; ownerReferences?: unknown } }).metadata ?? {};
  if (meta.namespace !== undefined && meta.namespace !== m.target.namespace) return `a pod of namespace ${JSON.stringify(meta.namespace)} in ${m.target.namespace ?? ''}`;
  const refs = Array.isArray(meta.ownerReferences) ? meta.ownerReferences as OwnerRef[] : [];
  const controllers = refs.filter((r) => r.controller === true);
  return controllers.length === 1 && isRcRef(controllers[0]) ? undefined : 'a pod whose controller is not one ReplicationController';
};

/**
 * rcPodPatch: the RC controller patches only owner references (AdoptPod and ReleasePod, as json patches), and
 * writes only ReplicationController references.
 */
const rcPodPatch: ContentRule = (m) => {
  if (m.patchType !== 'json') return `a ${m.patchType ?? 'missing'} patch (adoption and release are json patches of ${REFS})`;
  const ops = JSON.parse(m.patch ?? '[]') as unknown;
  if (!Array.isArray(ops)) return 'a json patch that is not a list of operations';
  const outside = (ops as JsonOp[]).find((o) => typeof o.path !== 'string' || (o.path !== REFS && !o.path.startsWith(`${REFS}/`)));
  if (outside) return `a patch of ${JSON.stringify(outside.path)}, outside ${REFS}`;
  const written = (ops as JsonOp[]).filter((o) => o.op === 'add' || o.op === 'replace').flatMap((o) => (Array.isArray(o.value) ? o.value as unknown[] : [o.value]));
  return written.every(isRcRef) ? undefined : 'an owner reference that is not a ReplicationController';
};

/** EVENT_KINDS are the kinds each controller records events about, as upstream's recorders do. */
const EVENT_KINDS: ReadonlyMap<string, readonly string[]> = new Map([
  [RC, ['ReplicationController']],
  ['endpoints-controller', ['Endpoints']],
  ['node-lifecycle-controller', ['Node', 'Pod']],
  ['taint-eviction-controller', ['Pod']],
]);

/** eventAbout: an event (recorded alone or after a write) is about a kind its controller acts on. */
function eventAbout(m: Mutation): string | undefined {
  const kind = m.event?.involvedObject.kind;
  const kinds = EVENT_KINDS.get(m.controller);
  return kind === undefined || kinds === undefined || kinds.includes(kind) ? undefined : `record an event about a ${kind}`;
}

/** CONTENT_RULES are the rules by `controller verb resource`; a triple without one has no content check. */
const CONTENT_RULES: ReadonlyMap<string, ContentRule> = new Map([
  [`${RC} Create pods`, rcPodCreate],
  [`${RC} Patch pods`, rcPodPatch],
  ...NODE_CONTENT_RULES,
]);

/** contentRefusal says why the writer refuses a mutation for what it carries, or undefined when it may go. */
export function contentRefusal(m: Mutation): string | undefined {
  const why = CONTENT_RULES.get(`${m.controller} ${m.verb} ${m.target.resource}`)?.(m);
  if (why !== undefined) return `${m.controller} may not ${m.verb} ${why}`;
  const event = eventAbout(m);
  return event === undefined ? undefined : `${m.controller} may not ${event}`;
}
