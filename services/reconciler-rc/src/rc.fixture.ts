import type { LabelSelector, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod, PodCondition, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import type { ReplicaSetLike } from './replica-set-kind.ts';
import { rfc3339 } from '@kcm-bus/k8s/meta-v1.ts';
import type { MutationCause } from '@kcm-bus/runtime/mutation/index.ts';

/** T0 is the tests' clock: reconciles happen at T0 unless a test moves time. */
export const T0 = new Date('2026-03-01T12:00:00Z');

/** LABELS is the selector upstream's tests use ({"foo": "bar"}). */
export const LABELS: Readonly<Record<string, string>> = { foo: 'bar' };

/** CAUSE is the input offset the tests' reconciles name as their cause. */
export const CAUSE: readonly MutationCause[] = [{ topic: 'kcm.watch.replicationcontrollers', partition: 0, offset: 7 }];

/** at is T0 plus seconds, as an RFC 3339 string (what the API serves). */
export function at(seconds: number): string {
  return rfc3339(new Date(T0.getTime() + seconds * 1000));
}

/**
 * newRc mirrors upstream's newReplicaSet: RC `default/foobar` with this many replicas and selector, the template
 * labelled with the selector, status observed at generation 1; overrides replace spec and metadata fields.
 */
export function newRc(
  replicas: number,
  selector = LABELS,
  overrides: { readonly metadata?: object; readonly spec?: object; readonly status?: object } = {},
): ReplicationController {
  return {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: {
      name: 'foobar',
      namespace: 'default',
      uid: 'rc-uid-foobar',
      resourceVersion: '18',
      generation: 1,
      ...overrides.metadata,
    },
    spec: {
      replicas,
      selector,
      template: {
        metadata: { labels: selector },
        spec: { containers: [{ name: 'c', image: 'foo/bar' }], restartPolicy: 'Always' } as object,
      },
      ...overrides.spec,
    },
    status: { replicas: 0, observedGeneration: 1, ...overrides.status },
  };
}

/**
 * newRs mirrors upstream's newReplicaSet for apps/v1: ReplicaSet `default/foobar` whose selector is this LabelSelector
 * (matchLabels `foo: bar` by default), the template labelled with `templateLabels` (the selector's matchLabels by
 * default), owned by a Deployment as upstream's test ReplicaSets are; overrides replace spec and metadata fields.
 */
export function newRs(
  replicas: number,
  selector: LabelSelector = { matchLabels: LABELS },
  overrides: {
    readonly metadata?: object;
    readonly spec?: object;
    readonly status?: object;
    readonly templateLabels?: Readonly<Record<string, string>>;
  } = {},
): ReplicaSet {
  const owner = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    name: 'dep',
    uid: 'dep-uid-123',
    controller: true,
    blockOwnerDeletion: true,
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'foobar',
      namespace: 'default',
      uid: 'rs-uid-foobar',
      resourceVersion: '18',
      generation: 1,
      ownerReferences: [owner],
      ...overrides.metadata,
    },
    spec: {
      replicas,
      selector,
      template: {
        metadata: { labels: overrides.templateLabels ?? selector.matchLabels ?? {} },
        spec: { containers: [{ name: 'c', image: 'foo/bar' }], restartPolicy: 'Always' } as object,
      },
      ...overrides.spec,
    },
    status: { replicas: 0, observedGeneration: 1, ...overrides.status },
  };
}

/** PodOptions shape a test pod: owned (controllerRef to the RC), its phase, Ready since when, node and labels. */
export type PodOptions = {
  readonly owned?: boolean;
  readonly phase?: string;
  readonly readySince?: string;
  readonly ready?: boolean;
  readonly node?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly created?: string;
  readonly deleting?: string;
  readonly ownerReferences?: Pod['metadata']['ownerReferences'];
  readonly annotations?: Readonly<Record<string, string>>;
  readonly restarts?: number;
};

/**
 * newPod mirrors upstream's newPod: pod `name` in the set's namespace with its selector's labels; a Running pod is
 * Ready (since readySince, if given) unless ready is false.
 */
export function newPod(name: string, rc: ReplicaSetLike, o: PodOptions = {}): Pod {
  const phase = o.phase ?? 'Running';
  const ready = o.ready ?? phase === 'Running';
  const conditions: PodCondition[] =
    phase === 'Running' || o.ready !== undefined
      ? [
          {
            type: 'Ready',
            status: ready ? 'True' : 'False',
            ...(o.readySince === undefined ? {} : { lastTransitionTime: o.readySince }),
          },
        ]
      : [];
  const owner = {
    apiVersion: rc.apiVersion ?? 'v1',
    kind: rc.kind ?? 'ReplicationController',
    name: rc.metadata.name,
    uid: rc.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  const ownerReferences = o.ownerReferences ?? (o.owned === false ? undefined : [owner]);
  const metadata = {
    name,
    namespace: rc.metadata.namespace ?? 'default',
    uid: `uid-${name}`,
    resourceVersion: '1',
    labels: o.labels ?? selectorLabels(rc),
    ...(ownerReferences === undefined ? {} : { ownerReferences }),
    ...(o.created === undefined ? {} : { creationTimestamp: o.created }),
    ...(o.deleting === undefined ? {} : { deletionTimestamp: o.deleting }),
    ...(o.annotations === undefined ? {} : { annotations: o.annotations }),
  };
  const containerStatuses = o.restarts === undefined ? [] : [{ name: 'c', restartCount: o.restarts }];
  return {
    metadata,
    spec: o.node === undefined ? {} : { nodeName: o.node },
    status: { phase, conditions, containerStatuses },
  };
}

/** selectorLabels are the labels a set's selector asks for: an RC's map, a ReplicaSet's matchLabels (upstream's newPod). */
function selectorLabels(set: ReplicaSetLike): Readonly<Record<string, string>> {
  const selector = set.spec.selector as (LabelSelector & Readonly<Record<string, unknown>>) | null | undefined;
  if (selector == null) return {};
  return 'matchLabels' in selector || 'matchExpressions' in selector
    ? (selector.matchLabels ?? {})
    : (selector as Readonly<Record<string, string>>);
}
