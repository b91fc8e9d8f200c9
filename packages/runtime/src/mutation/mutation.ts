/**
 * MUTATION_VERBS are the commands a reconciler may publish on `kcm.mutations`. On the wire the verb is a string
 * (schemas/mutation/Mutation.avsc), so adding a verb later keeps old readers able to decode new records; a reader
 * that does not know a verb sends the record to the dead-letter topic instead of failing on it. PopulateToken names a
 * service-account token Secret the writer fills at apply time (token, ca.crt, namespace: upstream's
 * generateTokenIfNeeded), minting the token with the key only it holds: the command carries no value, it names the
 * Secret and the version it was decided on. DeleteNamespaceContent names a terminating namespace (its uid) whose content
 * the writer deletes (upstream's deleteAllContent, a discovery and a delete-collection per resource the API serves);
 * its result reports what is left (MutationResult.contentReport). FinalizeNamespace names a terminating namespace (its
 * uid) whose `kubernetes` finalizer the writer removes through its finalize subresource, from the live namespace
 * (upstream's finalizeNamespace).
 */
export const MUTATION_VERBS = [
  'Create',
  'Update',
  'UpdateStatus',
  'Patch',
  'Delete',
  'RecordEvent',
  'PopulateToken',
  'DeleteNamespaceContent',
  'FinalizeNamespace',
] as const;

/** MutationVerb is one of MUTATION_VERBS: commands in the imperative, never facts. */
export type MutationVerb = (typeof MUTATION_VERBS)[number];

/**
 * PATCH_TYPES name the apiserver's patch flavours (k8s.io/apimachinery/pkg/types.PatchType): RFC 6902 JSON patch,
 * RFC 7386 merge patch, strategic merge patch and server-side apply.
 */
export const PATCH_TYPES = ['json', 'merge', 'strategic-merge', 'apply'] as const;

/** PatchType is one of PATCH_TYPES. */
export type PatchType = (typeof PATCH_TYPES)[number];

/**
 * MutationTarget names the object a mutation writes: its GVK, its namespace (null when cluster-scoped), its name,
 * and the REST resource (plural, e.g. `pods`) plus subresource (`status`) the request goes to. A Create may leave
 * name empty when its body has only metadata.generateName: the writer then derives the name (generatedName).
 */
export type MutationTarget = {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string | null;
  readonly name: string;
  readonly resource: string;
  readonly subresource: string | null;
};

/**
 * MutationPreconditions are what the object must still be for the write to apply (metav1.Preconditions): a Delete
 * always carries uid, an Update carries resourceVersion, so a replayed or zombie mutation cannot touch a recreated
 * or since-modified object.
 */
export type MutationPreconditions = {
  readonly uid: string | null;
  readonly resourceVersion: string | null;
};

/**
 * MutationCause is one input record that led to a mutation; `trace` follows these back to the watch events. topic,
 * partition and offset name the record (and make the mutation id); key and resourceVersion, absent in older records
 * and in ticks, find the same version in the history topic once compaction removed it from the state topic.
 */
export type MutationCause = {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key?: string | null;
  readonly resourceVersion?: string | null;
};

/** ObjectReference is the involvedObject of an Event (core/v1 ObjectReference, the fields recorders fill). */
export type ObjectReference = {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string | null;
  readonly name: string;
  readonly uid: string | null;
  readonly resourceVersion: string | null;
  readonly fieldPath: string | null;
};

/** EventType is core/v1 Event.type: what upstream's recorders emit (v1.EventTypeNormal, v1.EventTypeWarning). */
export type EventType = 'Normal' | 'Warning';

/**
 * MutationEvent is what a controller's EventRecorder.Event(object, type, reason, message) call carries; the writer
 * turns it into a core/v1 Event with client-go's correlation (aggregation, dedup, spam filter).
 */
export type MutationEvent = {
  readonly involvedObject: ObjectReference;
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
  readonly source: { readonly component: string; readonly host: string | null };
};

/**
 * Mutation is one command on `kcm.mutations`, keyed by targetKey. id is unique per command and stable under the
 * reconciler's replays (mutationId); body and patch are JSON text, as on the wire; createdAt is RFC 3339 from the
 * reconciler's clock (for RecordEvent it is the event's time, as client-go's makeEvent stamps it). Only the
 * writer interprets it: validateMutation checks that each verb has the parts it needs.
 */
export type Mutation = {
  readonly id: string;
  readonly controller: string;
  readonly verb: MutationVerb;
  readonly target: MutationTarget;
  readonly preconditions: MutationPreconditions;
  readonly body: string | null;
  readonly patch: string | null;
  readonly patchType: PatchType | null;
  readonly fieldManager: string | null;
  readonly cause: readonly MutationCause[];
  readonly createdAt: string;
  /** event is a RecordEvent's event; on another verb, the event the writer records only if the write is Applied. */
  readonly event: MutationEvent | null;
  /** reconcileKey is the key the controller was reconciling (an RC's `namespace/name`); results carry it back. */
  readonly reconcileKey: string | null;
  /** slowStart makes this Create a member of a slow-start run the writer applies as upstream's slowStartBatch. */
  readonly slowStart: SlowStart | null;
};

/** SlowStart is a member's place in a slow-start run: the run's id (its first mutation's), its index, the run's size. */
export type SlowStart = { readonly run: string; readonly index: number; readonly size: number };

/** apiGroup is the group of an apiVersion: `` for the core `v1`, `apps` for `apps/v1`. */
export function apiGroup(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * qualifiedResource is the target's resource in kubectl's `resource.group` notation (`pods`,
 * `leases.coordination.k8s.io`), without subresource: what RBAC and the allowlist speak about.
 */
export function qualifiedResource(target: MutationTarget): string {
  const group = apiGroup(target.apiVersion);
  return group === '' ? target.resource : `${target.resource}.${group}`;
}

/** subresourceOf is the subresource a mutation writes: `status` for UpdateStatus, else the target's own. */
export function subresourceOf(m: Pick<Mutation, 'verb' | 'target'>): string | null {
  return m.verb === 'UpdateStatus' ? 'status' : m.target.subresource;
}

/**
 * targetKey is the record key of a mutation on `kcm.mutations` and the unit of ordering in the writer:
 * `resource[.group]/[namespace/]name`, the same for every subresource of one object, so a status update and a
 * delete of one pod are applied in the order they were published. A Create without a name (generateName only)
 * gets a key of its own (`…/?<id>`): nothing else can refer to the object before it exists.
 */
export function targetKey(m: Pick<Mutation, 'id' | 'target'>): string {
  const name = m.target.name === '' ? `?${m.id}` : m.target.name;
  const namespace = m.target.namespace === null ? '' : `${m.target.namespace}/`;
  return `${qualifiedResource(m.target)}/${namespace}${name}`;
}
