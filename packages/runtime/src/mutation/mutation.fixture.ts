import type { NamespaceContentReport } from './mutation-result.ts';
import type { Mutation, MutationEvent, MutationTarget } from './mutation.ts';

/** CLEAN_CONTENT_REPORT is a content pass that left nothing and met no error. */
export const CLEAN_CONTENT_REPORT: NamespaceContentReport = {
  estimateSeconds: 0,
  remaining: [],
  finalizers: [],
  discoveryError: null,
  discoveryFailedGroups: null,
  groupVersionError: null,
  deleteContentErrors: [],
};

/** podTarget is pod `default/web-1` in the core group: the target tests start from. */
export const podTarget: MutationTarget = {
  apiVersion: 'v1',
  kind: 'Pod',
  namespace: 'default',
  name: 'web-1',
  resource: 'pods',
  subresource: null,
};

/** anEvent is what the RC controller records after creating a pod (Normal SuccessfulCreate on the RC). */
export const anEvent: MutationEvent = {
  involvedObject: {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    namespace: 'default',
    name: 'web',
    uid: 'rc-uid',
    resourceVersion: '41',
    fieldPath: null,
  },
  type: 'Normal',
  reason: 'SuccessfulCreate',
  message: 'Created pod: web-abcde',
  source: { component: 'replication-controller', host: null },
};

/**
 * aMutation is a valid Delete of pod default/web-1 by the RC controller syncing RC default/web, with every optional
 * part null; tests override what they are about.
 */
export function aMutation(overrides: Partial<Mutation> = {}): Mutation {
  return {
    id: 'm-1',
    controller: 'replicationcontroller-controller',
    verb: 'Delete',
    target: podTarget,
    preconditions: { uid: 'pod-uid', resourceVersion: null },
    body: null,
    patch: null,
    patchType: null,
    fieldManager: null,
    cause: [
      { topic: 'kcm.state.replicationcontrollers', partition: 0, offset: 7, key: 'default/web', resourceVersion: '41' },
    ],
    createdAt: '2026-11-22T14:00:00.123456789Z',
    event: null,
    reconcileKey: 'default/web',
    slowStart: null,
    ...overrides,
  };
}

/** aCreate is a Create of a pod named by generateName and controlled by RC web, as the RC controller publishes them. */
export function aCreate(overrides: Partial<Mutation> = {}): Mutation {
  const owner = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    name: 'web',
    uid: 'rc-uid',
    controller: true,
    blockOwnerDeletion: true,
  };
  const body = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { generateName: 'web-', namespace: 'default', ownerReferences: [owner] },
    spec: { containers: [] },
  };
  return aMutation({
    verb: 'Create',
    target: { ...podTarget, name: '' },
    preconditions: { uid: null, resourceVersion: null },
    body: JSON.stringify(body),
    ...overrides,
  });
}

/** aRecordEvent is a RecordEvent of anEvent, keyed like the Events it becomes. */
export function aRecordEvent(event: MutationEvent = anEvent, overrides: Partial<Mutation> = {}): Mutation {
  const target: MutationTarget = {
    apiVersion: 'v1',
    kind: 'Event',
    namespace: 'default',
    name: event.involvedObject.name,
    resource: 'events',
    subresource: null,
  };
  return aMutation({
    verb: 'RecordEvent',
    target,
    preconditions: { uid: null, resourceVersion: null },
    event,
    ...overrides,
  });
}
