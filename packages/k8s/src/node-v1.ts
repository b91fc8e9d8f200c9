/*
 * The node-side JSON node lifecycle and taint eviction read and write: core/v1 Node with its conditions and taints,
 * and coordination/v1 Lease (a pod's tolerations are in core-v1.ts). As in core-v1.ts, only the fields a controller looks at are typed,
 * times are RFC 3339 strings and absent fields are absent, never null.
 */
import type { ConditionStatus, ObjectMeta, TaintEffect } from './core-v1.ts';

/** Toleration and TaintEffect live with the pod (core-v1.ts); node-side code finds them here too. */
export type { TaintEffect, Toleration } from './core-v1.ts';

/** Taint is core/v1 Taint; timeAdded is when it was added (SwapNodeControllerTaint stamps every taint it adds). */
export type Taint = {
  readonly key: string;
  readonly value?: string;
  readonly effect: TaintEffect;
  readonly timeAdded?: string;
};

/** NodeCondition is core/v1 NodeCondition (Ready, MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable). */
export type NodeCondition = {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly lastHeartbeatTime?: string;
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
};

/** NodeSpec is the part of core/v1 NodeSpec the controllers read. */
export type NodeSpec = {
  readonly taints?: readonly Taint[];
  readonly unschedulable?: boolean;
};

/** NodeStatus is the part of core/v1 NodeStatus the controllers read; the rest travels untouched when spread. */
export type NodeStatus = {
  readonly conditions?: readonly NodeCondition[];
  /** allocatable: resource quantities by name (`cpu`: `4`, `3500m`), as the API serves them. */
  readonly allocatable?: Readonly<Record<string, string>>;
};

/** Node is core/v1 Node (cluster-scoped: no namespace). */
export type Node = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec?: NodeSpec;
  readonly status?: NodeStatus;
};

/** LeaseSpec is the part of coordination/v1 LeaseSpec node lifecycle reads: renewTime, a MicroTime string. */
export type LeaseSpec = {
  readonly holderIdentity?: string;
  readonly leaseDurationSeconds?: number;
  readonly renewTime?: string;
};

/** Lease is coordination/v1 Lease; a node's lives in namespace kube-node-lease under the node's name. */
export type Lease = {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec?: LeaseSpec;
};

/** NODE_LEASE_NAMESPACE is where kubelets renew their Leases (v1.NamespaceNodeLease). */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
