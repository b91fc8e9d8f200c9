import type { MutationVerb, PatchType } from '../mutation/mutation.ts';

/*
 * What a controller catalog entry is: the runtime's description of one of upstream's controllers as kcm-bus runs it.
 * The catalog itself, the application's list of controllers, is packages/catalog: the runtime knows no controller
 * by name, only this shape.
 */

/** ObjectKind names a kind by apiVersion and kind, as owner references do. */
export type ObjectKind = { readonly apiVersion: string; readonly kind: string };

/**
 * PatchShape lists the fields a patch may write: `true` allows anything below a field, a shape only its own fields
 * (a merge patch's keys, which must then be an object, as null there would delete the rest; a json patch's paths).
 */
export type PatchShape = { readonly [field: string]: true | PatchShape };

/**
 * ContentCheck is one check of a content rule, read by the writer's one interpreter
 * (services/writer/src/content-checks.ts). The object checks read what a mutation writes as an object: its merge or
 * strategic merge patch, else its body (a json patch writes no object, so they find nothing there):
 * - namespace: the object's metadata.namespace, when set, is the mutation's (a Create cannot escape its namespace);
 * - name: its metadata.name is `equals` (the ServiceAccount controller's `default`);
 * - label: it carries the label `key`, of value `equals` when given;
 * - controllerRef: it has one controller reference (metav1.GetControllerOf), of `kind`, and, when `nameLabel` is
 *   given, named as that label's value (a slice's Service, by kubernetes.io/service-name); with `namedByKey`, named
 *   as the object the mutation's reconcile key names (a Deployment's ReplicaSets, only that Deployment's);
 * - ownerReferences: every owner reference it writes is of `kind` (for a json patch: every value it adds or replaces
 *   under /metadata/ownerReferences), as AdoptPod's, and with `namedByKey` names the key's object;
 * - keyObject: its target is the object its reconcile key names (a controller writes its own object's status);
 * - conditionTypes: every condition its status.conditions writes is of one of `types`.
 * And what a Patch carries:
 * - patchType: its patch type is one of `types` (types.PatchType; a mutation without a patch has none);
 * - patchFields: it writes no field outside `fields`: a json patch's paths, else the keys of the object it writes;
 * - patchOps: it is a json patch of no operation but `ops` (the tokens controller may test and remove an account's
 *   secret references, never add one).
 */
export type ContentCheck =
  | { readonly check: 'namespace' }
  | { readonly check: 'name'; readonly equals: string }
  | { readonly check: 'label'; readonly key: string; readonly equals?: string }
  | {
      readonly check: 'controllerRef';
      readonly kind: ObjectKind;
      readonly nameLabel?: string;
      readonly namedByKey?: true;
    }
  | { readonly check: 'ownerReferences'; readonly kind: ObjectKind; readonly namedByKey?: true }
  | { readonly check: 'keyObject' }
  | { readonly check: 'conditionTypes'; readonly types: readonly string[] }
  | { readonly check: 'patchType'; readonly types: readonly PatchType[] }
  | { readonly check: 'patchFields'; readonly fields: PatchShape }
  | { readonly check: 'patchOps'; readonly ops: readonly JsonPatchOpName[] };

/** JsonPatchOpName is an RFC 6902 operation's name. */
export type JsonPatchOpName = 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';

/**
 * ContentRule is what a granted write must carry beyond its (controller, verb, resource): checks that all hold, the
 * first that fails saying why the writer refuses it. It is data only, so a new controller's rule is catalog data and
 * no writer code; it is never empty, so a grant that names a rule checks something.
 */
export type ContentRule = readonly [ContentCheck, ...ContentCheck[]];

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
 * verbs and, where the verb alone says too little, the content rule its mutations must pass (ContentRule).
 */
export type Grant = {
  readonly resource: string;
  readonly verbs: readonly MutationVerb[];
  readonly content?: ContentRule;
  /** live is what the writer checks against the API when it applies the write, not against the record (LiveCheck). */
  readonly live?: LiveCheck;
};

/**
 * LiveCheck is a condition the writer reads from the API at apply time, just before the write, because a record can
 * be forged, replayed or stale and the write's power must stay bounded by what holds now (services/writer's
 * live-checks.ts reads it; the writer's role may get what it names):
 * - tokenAccount: the target is a `kubernetes.io/service-account-token` Secret naming an account (its annotations),
 *   and that account exists (same uid when the Secret names one) or, with `exists: false`, does not;
 * - controlledByKey: the target's one controller reference (metav1.GetControllerOf), as the API has it now, is of
 *   `kind` and names the object the mutation's reconcile key names (a Deployment deletes only its own ReplicaSets);
 * - namespaceTerminating: the target namespace, the one the mutation names (its uid), has a deletion timestamp (its
 *   content may be deleted, its `kubernetes` finalizer removed);
 * - keySecretGone: the Secret the mutation's reconcile key names, in the target's namespace, is gone (a reference to
 *   it may be taken out of an account's `secrets`).
 */
export type LiveCheck =
  | { readonly check: 'tokenAccount'; readonly exists: boolean }
  | { readonly check: 'controlledByKey'; readonly kind: ObjectKind }
  | { readonly check: 'namespaceTerminating' }
  | { readonly check: 'keySecretGone' };

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
  /**
   * newAtCut: a new object of the kind it reconciles is synced at a cut (its handler enqueues it with
   * `enqueueAtCut`: once its other inputs are known complete up to the object's creation), so a creation of that kind
   * should bring every kind's watermark at once (the watcher's --watermark-prompt-kinds). Absent: it syncs new objects
   * on what its stores hold, and their creations hasten nothing.
   */
  readonly newAtCut?: true;
  readonly eventKinds: readonly string[];
  /**
   * clientScale: upstream gives the controller's client --kube-api-qps and --kube-api-burst times these (the namespace
   * controller's ×20 and ×100, newNamespaceController); the writer's budget for it is scaled alike. Absent: ×1.
   */
  readonly clientScale?: { readonly qps: number; readonly burst: number };
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
