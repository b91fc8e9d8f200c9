/*
 * Content rules as data: what a granted write must carry beyond its (controller, verb, resource). The catalog names a
 * rule per grant; the writer implements each kind of rule once (services/writer/src/content-rules.ts).
 */

/** ObjectKind names a kind by apiVersion and kind, as owner references do. */
export type ObjectKind = { readonly apiVersion: string; readonly kind: string };

/** PatchShape lists the fields a merge patch may set: `true` allows anything below a field, a shape only its own fields. */
export type PatchShape = { readonly [field: string]: true | PatchShape };

/**
 * ContentRuleSpec is one rule:
 * - controlled-by: a Create of an object of the mutation's namespace whose one controller reference is of `owner`'s
 *   kind (what GetPodFromTemplate makes for a ReplicaSet or an RC);
 * - owner-references: a json patch of metadata.ownerReferences only, writing only references of `owner`'s kind
 *   (AdoptPod and ReleasePod);
 * - merge-patch: a strategic merge or merge patch setting no field outside `fields`, and, when `conditionType` is
 *   given, writing only conditions of that type;
 * - managed-endpoint-slice: an EndpointSlice of the mutation's namespace labelled managed-by `managedBy`, whose one
 *   controller reference is a v1 Service named as its kubernetes.io/service-name label (what the endpointslice
 *   controller writes; a slice of the user's, or one pointing traffic at another Service's name, is refused).
 */
export type ContentRuleSpec =
  | { readonly rule: 'controlled-by'; readonly owner: ObjectKind }
  | { readonly rule: 'owner-references'; readonly owner: ObjectKind }
  | { readonly rule: 'merge-patch'; readonly fields: PatchShape; readonly conditionType?: string }
  | { readonly rule: 'managed-endpoint-slice'; readonly managedBy: string };
