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

/** IntOrString is intstr.IntOrString as the wire carries it: a number, or a string such as "25%". */
export type IntOrString = number | string;

/** RollingUpdateDeployment is apps/v1 RollingUpdateDeployment: each bound a count or a percentage of the replicas. */
export type RollingUpdateDeployment = {
  readonly maxUnavailable?: IntOrString | null;
  readonly maxSurge?: IntOrString | null;
};

/** DeploymentStrategy is apps/v1 DeploymentStrategy: `RollingUpdate` (the default) or `Recreate`. */
export type DeploymentStrategy = {
  readonly type?: string;
  readonly rollingUpdate?: RollingUpdateDeployment | null;
};

/** DeploymentSpec is apps/v1 DeploymentSpec (the apiserver defaults replicas, strategy, revisionHistoryLimit, progressDeadlineSeconds). */
export type DeploymentSpec = {
  readonly replicas?: number;
  readonly selector?: LabelSelector | null;
  readonly template?: PodTemplateSpec;
  readonly strategy?: DeploymentStrategy;
  readonly minReadySeconds?: number;
  readonly revisionHistoryLimit?: number | null;
  readonly paused?: boolean;
  readonly progressDeadlineSeconds?: number | null;
};

/** DeploymentCondition is apps/v1 DeploymentCondition (Available, Progressing, ReplicaFailure). */
export type DeploymentCondition = {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly lastUpdateTime?: string;
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
};

/** DeploymentStatus is apps/v1 DeploymentStatus; zero counts are omitted on the wire. */
export type DeploymentStatus = {
  readonly observedGeneration?: number;
  readonly replicas?: number;
  readonly updatedReplicas?: number;
  readonly readyReplicas?: number;
  readonly availableReplicas?: number;
  readonly unavailableReplicas?: number;
  readonly terminatingReplicas?: number | null;
  readonly conditions?: readonly DeploymentCondition[];
  readonly collisionCount?: number | null;
};

/** Deployment is apps/v1 Deployment. */
export type Deployment = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec: DeploymentSpec;
  readonly status?: DeploymentStatus;
};
