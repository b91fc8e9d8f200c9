import type { ConditionStatus, ObjectMeta, PodTemplateSpec } from './core-v1.ts';

/** LabelSelectorOperator is metav1.LabelSelectorOperator. */
export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

/** LabelSelectorRequirement is metav1.LabelSelectorRequirement; the operator is the wire's string (an unknown one is an error). */
export type LabelSelectorRequirement = {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[] | null;
};

/** LabelSelector is metav1.LabelSelector: matchLabels and matchExpressions, ANDed. */
export type LabelSelector = {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?: readonly LabelSelectorRequirement[] | null;
};

/** ReplicaSetCondition is apps/v1 ReplicaSetCondition (type ReplicaFailure). */
export type ReplicaSetCondition = {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
};

/**
 * ReplicaSetStatus is apps/v1 ReplicaSetStatus; zero counts are omitted on the wire. terminatingReplicas is a pointer
 * upstream: absent unless the DeploymentReplicaSetTerminatingReplicas gate (beta, on since 1.35) counts them.
 */
export type ReplicaSetStatus = {
  readonly replicas: number;
  readonly fullyLabeledReplicas?: number;
  readonly readyReplicas?: number;
  readonly availableReplicas?: number;
  readonly terminatingReplicas?: number | null;
  readonly observedGeneration?: number;
  readonly conditions?: readonly ReplicaSetCondition[];
};

/** ReplicaSetSpec is apps/v1 ReplicaSetSpec. */
export type ReplicaSetSpec = {
  readonly replicas?: number;
  readonly minReadySeconds?: number;
  readonly selector?: LabelSelector | null;
  readonly template?: PodTemplateSpec;
};

/** ReplicaSet is apps/v1 ReplicaSet. */
export type ReplicaSet = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec: ReplicaSetSpec;
  readonly status?: ReplicaSetStatus;
};
