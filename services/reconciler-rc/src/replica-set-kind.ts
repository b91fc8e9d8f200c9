import type { LabelSelector, ReplicaSetStatus } from '@kcm-bus/k8s/apps-v1.ts';
import type { ObjectMeta, PodTemplateSpec } from '@kcm-bus/k8s/core-v1.ts';
import { labelSelectorMatcher, type SelectorOrError } from '@kcm-bus/k8s/label-selector.ts';
import { type Labels, selectorMatcher } from '@kcm-bus/k8s/labels.ts';
import { type CatalogEntry, REPLICASET_CONTROLLER, REPLICATION_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import type { ObjectKind } from '@kcm-bus/runtime/catalog/index.ts';
import { watchedKind, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';

/*
 * Upstream serves ReplicaSets and ReplicationControllers with one implementation (pkg/controller/replicaset's
 * ReplicaSetController; pkg/controller/replication runs it on RCs "as if ReplicationController were just an older API
 * version of ReplicaSet"). So does this service: the decision code reads a ReplicaSetLike and asks its ReplicaSetKind
 * what differs: names, the owner kind of the pods' references, the selector's form, terminatingReplicas.
 */

/**
 * ReplicaSetLike is the part of an apps/v1 ReplicaSet or a v1 ReplicationController the controller reads, each as its
 * API serves it (the selector's form is the kind's to read; status writes send the object as the lister holds it).
 */
export type ReplicaSetLike = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec: {
    readonly replicas?: number;
    readonly minReadySeconds?: number;
    readonly selector?: LabelSelector | Labels;
    readonly template?: PodTemplateSpec;
  };
  readonly status?: ReplicaSetStatus;
};

/**
 * ReplicaSetKind is what upstream's ReplicaSetController is built with for one kind: its catalog name (controller,
 * queue, mutations' `controller`) and event source, the GroupVersionKind its pods' controller references name, the
 * watched kind of its objects (status writes), its selector's reading (LabelSelectorAsSelector, or an RC's equality
 * map) and whether status counts terminating pods (EnableStatusTerminatingReplicas: the ReplicaSet's, with the
 * DeploymentReplicaSetTerminatingReplicas gate, beta and on in v1.37.2; never an RC's, whose API has no such field).
 */
export type ReplicaSetKind = {
  readonly controller: string;
  readonly eventSource: string;
  readonly owner: ObjectKind;
  readonly objects: WatchedKind;
  readonly selector: (set: ReplicaSetLike) => SelectorOrError;
  readonly terminatingReplicas: boolean;
};

/** kindOf is a ReplicaSetKind from the controller's catalog entry. */
function kindOf(
  entry: CatalogEntry,
  selector: ReplicaSetKind['selector'],
  terminatingReplicas: boolean,
): ReplicaSetKind {
  const objects = watchedKind(entry.reconciles ?? '');
  return {
    controller: entry.name,
    eventSource: entry.eventSource,
    owner: { apiVersion: objects.apiVersion, kind: objects.kind },
    objects,
    selector,
    terminatingReplicas,
  };
}

/** REPLICATION_CONTROLLERS is the RC manager (pkg/controller/replication): an equality-map selector, no terminatingReplicas. */
export const REPLICATION_CONTROLLERS: ReplicaSetKind = kindOf(
  REPLICATION_CONTROLLER,
  (set) => ({ matches: selectorMatcher(set.spec.selector as Labels) }),
  false,
);

/** REPLICA_SETS is the ReplicaSet manager (pkg/controller/replicaset): a metav1.LabelSelector, terminatingReplicas counted. */
export const REPLICA_SETS: ReplicaSetKind = kindOf(
  REPLICASET_CONTROLLER,
  (set) => labelSelectorMatcher(set.spec.selector as LabelSelector | undefined),
  true,
);

/** PODS is the kind the controllers create, adopt, release and delete. */
export const PODS = watchedKind('pods');

/**
 * podSelects mirrors the listers' GetPodReplicaSets / GetPodControllers test of one set against a pod: an invalid
 * selector, or a nil or empty one, matches nothing ("it should match nothing, not everything").
 */
export function podSelects(kind: ReplicaSetKind, set: ReplicaSetLike, labels: Labels): boolean {
  if (emptySelector(set.spec.selector)) return false;
  const selector = kind.selector(set);
  return 'matches' in selector && selector.matches(labels);
}

/** emptySelector: no selector, an empty map (an RC's), or a LabelSelector without labels or expressions (selector.Empty()). */
function emptySelector(selector: LabelSelector | Labels): boolean {
  return (
    selector == null ||
    Object.values(selector).every((v) => v == null || (typeof v === 'object' && Object.keys(v).length === 0))
  );
}
