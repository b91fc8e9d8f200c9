import type { ConditionStatus, Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { Node, Taint, Toleration } from '@kcm-bus/k8s/node-v1.ts';
import type { MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import type { ReconcileInput, InputWatermarks, Inputs, ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';

/** T0 is the tests' fakeNow (2015-01-01 12:00 UTC, as node_lifecycle_controller_test.go). */
export const T0 = new Date('2015-01-01T12:00:00Z');

/** at is T0 plus ms. */
export const at = (ms: number): Date => new Date(T0.getTime() + ms);

/** newPod is testutil.NewPod: namespace default, bound to nodeName ('' unbound), Ready True; tolerations optional. */
export function newPod(name: string, nodeName: string, tolerations?: readonly Toleration[]): Pod {
  return {
    metadata: { namespace: 'default', name, uid: `uid-${name}`, resourceVersion: '1' },
    spec: { nodeName, ...(tolerations === undefined ? {} : { tolerations }) },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** newNode is testutil.NewNode with an optional Ready status and taints. */
export function newNode(
  name: string,
  o: { readonly ready?: ConditionStatus; readonly taints?: readonly Taint[] } = {},
): Node {
  const conditions =
    o.ready === undefined ? [] : [{ type: 'Ready', status: o.ready, lastHeartbeatTime: T0.toISOString() }];
  return {
    metadata: { name, uid: `uid-${name}`, resourceVersion: '1' },
    spec: o.taints === undefined ? {} : { taints: o.taints },
    status: { conditions },
  };
}

/** noExecute is createNoExecuteTaint(index) of taint_eviction_test.go, added at `added` (absent: no timeAdded). */
export function noExecute(index: number, added?: Date): Taint {
  return {
    key: `testTaint${index}`,
    value: `test${index}`,
    effect: 'NoExecute',
    ...(added === undefined ? {} : { timeAdded: added.toISOString() }),
  };
}

/** tolerate is addToleration's toleration of noExecute(index) for seconds (undefined: forever). */
export function tolerate(index: number, seconds?: number): Toleration {
  return {
    key: `testTaint${index}`,
    value: `test${index}`,
    effect: 'NoExecute',
    ...(seconds === undefined ? {} : { tolerationSeconds: seconds }),
  };
}

/** applied is a live (or restored) Applied event of object, old undefined for an add. */
export function applied<T extends { readonly metadata: { readonly namespace?: string; readonly name: string } }>(
  object: T,
  old?: T,
  live = true,
): ObjectEvent<T> {
  return { type: 'Applied', key: objectKey(object.metadata), object, old, live };
}

/** deleted is a live Deleted event carrying the object's last state. */
export function deleted<T extends { readonly metadata: { readonly namespace?: string; readonly name: string } }>(
  object: T,
): ObjectEvent<T> {
  return { type: 'Deleted', key: objectKey(object.metadata), object, old: object, live: true };
}

/** watermarksAt are InputWatermarks whose every input is known complete up to `observed` (undefined: no watermark yet). */
export function watermarksAt<L extends Inputs>(observed: Date | undefined): InputWatermarks<L> {
  return { watermark: () => observed };
}

/** input is a ReconcileInput at now, with the failures of the key's last writes. */
export function input(now: Date, failures: readonly MutationResult[] = []): ReconcileInput {
  return {
    expectations: { satisfied: true, pendingCreates: [], pendingDeletes: [] },
    failures,
    now,
    cause: [],
    attempt: 0,
    fresh: true,
  };
}
