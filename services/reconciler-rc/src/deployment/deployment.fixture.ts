import type { Deployment, IntOrString, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import { newControllerRef } from '../claim-objects.ts';
import { DEPLOYMENT_KIND } from './kinds.ts';
import { MAX_INT32, RECREATE } from './spec.ts';

/** T0 is the tests' clock. */
export const T0 = new Date('2026-03-01T12:00:00Z');

/** at is T0 plus seconds, as an RFC 3339 string with whole seconds (what the API serves). */
export function at(seconds: number): string {
  return new Date(T0.getTime() + seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** LABELS is the selector upstream's tests use ({"foo": "bar"}). */
/** FOO_CONTROLLER_REF is the controller reference a ReplicaSet of newDeployment('foo') carries. */
export const FOO_CONTROLLER_REF = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  name: 'foo',
  uid: 'uid-foo',
  controller: true,
  blockOwnerDeletion: true,
};

export const LABELS: Readonly<Record<string, string>> = { foo: 'bar' };

/** DeploymentOptions vary newDeployment as upstream's tests vary theirs; absent limits are upstream's nil (none). */
export type DeploymentOptions = {
  readonly revisionHistoryLimit?: number;
  readonly progressDeadlineSeconds?: number;
  readonly maxSurge?: IntOrString;
  readonly maxUnavailable?: IntOrString;
  readonly selector?: Readonly<Record<string, string>>;
  readonly recreate?: boolean;
  readonly paused?: boolean;
  readonly generation?: number;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly status?: Deployment['status'];
};

/**
 * newDeployment mirrors upstream's newDeployment: `default/<name>`, a rolling update with maxSurge and
 * maxUnavailable 0 unless given, the template labelled with the selector; no revisionHistoryLimit nor
 * progressDeadlineSeconds unless given (MaxInt32: upstream's tests leave them nil, which means none).
 */
export function newDeployment(name: string, replicas: number, o: DeploymentOptions = {}): Deployment {
  const selector = o.selector ?? LABELS;
  const strategy = o.recreate
    ? { type: RECREATE }
    : { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: o.maxUnavailable ?? 0, maxSurge: o.maxSurge ?? 0 } };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '10',
      generation: o.generation ?? 1,
      annotations: { ...o.annotations },
    },
    spec: {
      replicas,
      selector: { matchLabels: selector },
      template: { metadata: { labels: selector }, spec: { containers: [{ name: 'c', image: 'foo/bar' }] } as object },
      strategy,
      revisionHistoryLimit: o.revisionHistoryLimit ?? MAX_INT32,
      progressDeadlineSeconds: o.progressDeadlineSeconds ?? MAX_INT32,
      ...(o.paused === undefined ? {} : { paused: o.paused }),
    },
    ...(o.status === undefined ? {} : { status: o.status }),
  };
}

/** rs mirrors upstream's rs(): `default/<name>`, created at `created` (none: Go's zero time), an empty template. */
export function rs(name: string, replicas: number, created?: string, status?: ReplicaSet['status']): ReplicaSet {
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '5',
      ...(created === undefined ? {} : { creationTimestamp: created }),
    },
    spec: { replicas, selector: { matchLabels: LABELS }, template: {} },
    ...(status === undefined ? {} : { status }),
  };
}

/**
 * newReplicaSet mirrors upstream's newReplicaSet: `default/<name>`, controlled by the Deployment, labelled with its
 * selector, with its template and selector.
 */
export function newReplicaSet(
  d: Deployment,
  name: string,
  replicas: number,
  over: Partial<ReplicaSet> = {},
): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '5',
      labels: { ...d.spec.selector?.matchLabels },
      ownerReferences: [newControllerRef(d, DEPLOYMENT_KIND)],
    },
    spec: { replicas, selector: d.spec.selector ?? null, ...(d.spec.template ? { template: d.spec.template } : {}) },
    ...over,
  };
}
