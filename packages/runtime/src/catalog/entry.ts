import type { MutationVerb } from '../mutation/mutation.ts';

/*
 * What a controller catalog entry is: the runtime's description of one of upstream's controllers as kcm-bus runs it.
 * The catalog itself, the application's list of controllers, is packages/catalog: the runtime knows no controller
 * by name, only this shape.
 */

/** ObjectKind names a kind by apiVersion and kind, as owner references do. */
export type ObjectKind = { readonly apiVersion: string; readonly kind: string };

/** PatchShape lists the fields a merge patch may set: `true` allows anything below a field, a shape only its own fields. */
export type PatchShape = { readonly [field: string]: true | PatchShape };

/**
 * ContentRuleSpec is what a granted write must carry beyond its (controller, verb, resource); the writer implements
 * each kind of rule once (services/writer/src/content-rules.ts):
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

/** CatalogInput is one input of a controller part: a watched kind (by plural), read partitioned or whole (global). */
export type CatalogInput = { readonly kind: string; readonly scope: 'partitioned' | 'global' };

/** WorkersFlag is the flag that sets how many keys sync at once (upstream's --concurrent-<kind>-syncs). */
export type WorkersFlag = { readonly name: string; readonly default: number; readonly help: string };

/**
 * ControllerPart is one consumer group and workqueue of a controller: most controllers have one; node lifecycle has a
 * node part (one active member, like upstream's leader) and a pod part sharded with the pods.
 */
export type ControllerPart = {
  /** workqueue is upstream's workqueue name (the `name` label of the workqueue_* metrics). */
  readonly workqueue: string;
  readonly inputs: Readonly<Record<string, CatalogInput>>;
  readonly workers: WorkersFlag;
  readonly singleton?: boolean;
  readonly expectations?: boolean;
};

/**
 * Grant is one resource the writer lets a controller write, kubectl's `resource[.group][/subresource]`, with the
 * verbs and, where the verb alone says too little, the content rule its mutations must pass (ContentRuleSpec).
 */
export type Grant = {
  readonly resource: string;
  readonly verbs: readonly MutationVerb[];
  readonly content?: ContentRuleSpec;
};

/**
 * ControllerEntry is one of upstream's controllers as kcm-bus runs it. name is upstream's `--controllers` name, the
 * `controller` of its mutations and the signer of them; service the kcm-bus service that runs it; eventSource its
 * recorder's component; reconciles the kind its keys name (null: keys of its own, as node lifecycle's); eventKinds
 * what its events may be about; ownerFinalizers the kinds it sets blockOwnerDeletion on (upstream's role may update
 * their finalizers, which the apiserver's OwnerReferencesPermissionEnforcement admission asks for).
 */
export type ControllerEntry = {
  readonly name: string;
  readonly service: string;
  readonly eventSource: string;
  readonly reconciles: string | null;
  readonly eventKinds: readonly string[];
  readonly grants: readonly Grant[];
  readonly ownerFinalizers: readonly string[];
  readonly parts: readonly ControllerPart[];
};

/** PartOf is the part of entry E whose workqueue is W, with its literal input names. */
export type PartOf<E extends ControllerEntry, W extends string> = Extract<
  E['parts'][number],
  { readonly workqueue: W }
>;

/** WorkqueueOf is any workqueue name of entry E's parts. */
export type WorkqueueOf<E extends ControllerEntry> = E['parts'][number]['workqueue'];

/** InputNamesOf are the input names the catalog gives the part of E whose workqueue is W. */
export type InputNamesOf<E extends ControllerEntry, W extends string> = keyof PartOf<E, W>['inputs'] & string;
