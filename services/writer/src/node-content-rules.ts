import type { Mutation } from '@kcm-bus/runtime/mutation/mutation.ts';

/** ContentRule answers why the writer must refuse a mutation for what it carries, or undefined (content-rules.ts). */
export type ContentRule = (m: Mutation) => string | undefined;

/** PatchShape lists the fields a merge patch may set: `true` allows anything below a field, a shape only its own fields. */
type PatchShape = { readonly [field: string]: true | PatchShape };

const NODE_LIFECYCLE = 'node-lifecycle-controller';
const TAINT_EVICTION = 'taint-eviction-controller';

/** outsideShape names the first field of `value` the shape does not allow, or undefined. */
function outsideShape(value: unknown, shape: PatchShape, path = ''): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return path === '' ? '(not an object)' : undefined;
  for (const [field, inner] of Object.entries(value)) {
    const allowed = shape[field];
    if (allowed === undefined) return `${path}/${field}`;
    const deeper = allowed === true ? undefined : outsideShape(inner, allowed, `${path}/${field}`);
    if (deeper !== undefined) return deeper;
  }
  return undefined;
}

/** mergePatchOf is a strategic merge or merge patch's object, or why it is not one. */
function mergePatchOf(m: Mutation): { readonly patch: unknown } | { readonly why: string } {
  if (m.patchType !== 'strategic-merge' && m.patchType !== 'merge') return { why: `a ${m.patchType ?? 'missing'} patch` };
  return { patch: JSON.parse(m.patch ?? 'null') as unknown };
}

/** shapeRule refuses a patch of another subresource, or one setting fields outside the shape, or failing `also`. */
function shapeRule(subresource: string | null, shape: PatchShape, also: (patch: unknown) => string | undefined = () => undefined): ContentRule {
  return (m) => {
    if (m.target.subresource !== subresource) return `patch ${m.target.resource}/${m.target.subresource ?? ''}`;
    const parsed = mergePatchOf(m);
    if ('why' in parsed) return parsed.why;
    const outside = outsideShape(parsed.patch, shape);
    return outside === undefined ? also(parsed.patch) : `a patch of ${outside}`;
  };
}

const conditionTypes = (patch: unknown): readonly unknown[] => {
  const conditions = (patch as { status?: { conditions?: unknown } }).status?.conditions;
  return Array.isArray(conditions) ? conditions.map((c) => (c as { type?: unknown } | null)?.type) : [];
};

/** onlyConditions: every condition the patch writes is of that type. */
const onlyConditions = (type: string) => (patch: unknown): string | undefined => {
  const other = conditionTypes(patch).find((t) => t !== type);
  return other === undefined ? undefined : `a pod condition of type ${JSON.stringify(other)}`;
};

/**
 * NODE_CONTENT_RULES are node lifecycle's and taint eviction's, by `controller verb resource`: node lifecycle patches
 * a node's taints (PatchNodeTaints) and its beta os/arch labels (reconcileNodeLabels), nothing else of it; taint
 * eviction patches only a pod's DisruptionTarget condition (addConditionAndDeletePod); node lifecycle's pod status
 * patches, if any, only the Ready condition (MarkPodsNotReady).
 */
export const NODE_CONTENT_RULES: ReadonlyMap<string, ContentRule> = new Map([
  [`${NODE_LIFECYCLE} Patch nodes`, shapeRule(null, { metadata: { labels: { 'beta.kubernetes.io/os': true, 'beta.kubernetes.io/arch': true } }, spec: { taints: true } })],
  [`${TAINT_EVICTION} Patch pods`, shapeRule('status', { status: { conditions: true } }, onlyConditions('DisruptionTarget'))],
  [`${NODE_LIFECYCLE} Patch pods`, shapeRule('status', { status: { conditions: true } }, onlyConditions('Ready'))],
]);
