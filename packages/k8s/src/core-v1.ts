/*
 * The core/v1 JSON the controllers read and write, as the apiserver serves it. Only the fields a controller looks at
 * are typed; objects are spread, never rebuilt field by field, so the fields not named here travel through
 * untouched. Times are RFC 3339 strings; absent fields are absent, never null (the watch codec omits null fields,
 * as Go's omitempty does). A controller that reads another kind adds its type here, beside these.
 */

/** OwnerReference is metav1.OwnerReference; absent controller and blockOwnerDeletion mean false. */
export type OwnerReference = {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
};

/** ObjectMeta is the part of metav1.ObjectMeta the controllers read (deletionTimestamp set means terminating). */
export type ObjectMeta = {
  readonly name: string;
  readonly namespace?: string;
  readonly uid: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly creationTimestamp?: string;
  readonly deletionTimestamp?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly OwnerReference[];
  readonly finalizers?: readonly string[];
};

/** ConditionStatus is core/v1 ConditionStatus, the status of every condition of every kind. */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** PodCondition is core/v1 PodCondition (Ready is the one that matters here). */
export type PodCondition = {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly lastTransitionTime?: string;
};

/** ContainerStatus is the part of core/v1 ContainerStatus the deletion ranking reads. */
export type ContainerStatus = { readonly name: string; readonly restartCount: number };

/** Container is the part of core/v1 Container the ranking reads: sidecars are init containers restarting Always. */
export type Container = { readonly name: string; readonly restartPolicy?: string };

/** PodSpec is core/v1 PodSpec as far as the controllers look at it; a template's spec is copied whole. */
export type PodSpec = {
  readonly nodeName?: string;
  readonly initContainers?: readonly Container[];
};

/** PodStatus is core/v1 PodStatus: phase Pending | Running | Succeeded | Failed | Unknown. */
export type PodStatus = {
  readonly phase?: string;
  readonly conditions?: readonly PodCondition[];
  readonly containerStatuses?: readonly ContainerStatus[];
  readonly initContainerStatuses?: readonly ContainerStatus[];
};

/** Pod is core/v1 Pod. */
export type Pod = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec?: PodSpec;
  readonly status?: PodStatus;
};

/** PodTemplateSpec is core/v1 PodTemplateSpec: the metadata a created pod inherits and its whole spec. */
export type PodTemplateSpec = {
  readonly metadata?: Partial<ObjectMeta>;
  readonly spec?: PodSpec;
};

/** ReplicationControllerCondition is core/v1 ReplicationControllerCondition (type ReplicaFailure). */
export type ReplicationControllerCondition = {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
};

/** ReplicationControllerStatus is core/v1 ReplicationControllerStatus; zero counts are omitted on the wire. */
export type ReplicationControllerStatus = {
  readonly replicas: number;
  readonly fullyLabeledReplicas?: number;
  readonly readyReplicas?: number;
  readonly availableReplicas?: number;
  readonly observedGeneration?: number;
  readonly conditions?: readonly ReplicationControllerCondition[];
};

/** ReplicationControllerSpec is core/v1 ReplicationControllerSpec: selector is an equality map, not a LabelSelector. */
export type ReplicationControllerSpec = {
  readonly replicas?: number;
  readonly minReadySeconds?: number;
  readonly selector?: Readonly<Record<string, string>>;
  readonly template?: PodTemplateSpec;
};

/** ReplicationController is core/v1 ReplicationController. */
export type ReplicationController = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec: ReplicationControllerSpec;
  readonly status?: ReplicationControllerStatus;
};
