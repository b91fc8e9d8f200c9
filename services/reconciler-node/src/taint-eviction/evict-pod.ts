import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { deleteDraft, mergePatchDraft, type MutationDraft, recordEventDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import { rfc3339 } from '@kcm-bus/k8s/meta-v1.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { TAINT_EVICTION_SOURCE } from '../controller-names.ts';

const PODS = watchedKind('pods');

/** DISRUPTION_TARGET is the condition addConditionAndDeletePod sets before the delete (v1.DisruptionTarget). */
const DISRUPTION_TARGET = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'DeletionByTaintManager',
  message: 'Taint manager: deleting due to NoExecute taint',
} as const;

/**
 * evictionEvent is emitPodDeletionEvent (Normal TaintManagerEviction "Marking for deletion Pod ns/name") and, with
 * `cancelled`, emitCancelPodDeletionEvent ("Cancelling deletion of Pod ns/name"). As upstream's, the event names the
 * pod by namespace and name only (an ObjectReference without uid).
 */
export function evictionEvent(key: string, cancelled: boolean): MutationDraft {
  const [namespace = '', name = ''] = key.split('/');
  const message = `${cancelled ? 'Cancelling deletion of' : 'Marking for deletion'} Pod ${key}`;
  return recordEventDraft(
    TAINT_EVICTION_SOURCE,
    { ...PODS, metadata: { namespace, name, uid: '' } },
    'Normal',
    'TaintManagerEviction',
    message,
  );
}

/**
 * addConditionAndDeletePod mirrors its namesake: the DisruptionTarget condition as a status patch (strategic merge
 * of the conditions by type, guarded by uid and resourceVersion), skipped when UpdatePodCondition finds nothing to
 * change (already True with the same reason and message and no lastProbeTime), then the pod's Delete (default grace
 * period, uid precondition). observedGeneration is the pod's generation (PodObservedGenerationTracking is GA).
 */
export function addConditionAndDeletePod(pod: Pod, now: Date): readonly MutationDraft[] {
  const condition = disruptionTarget(pod, now);
  const patch =
    condition === undefined ? [] : [mergePatchDraft(PODS, pod, { status: { conditions: [condition] } }, 'status')];
  return [...patch, deleteDraft(PODS, pod.metadata)];
}

/** disruptionTarget is the condition UpdatePodCondition would write, undefined when it reports no change. */
function disruptionTarget(pod: Pod, now: Date): object | undefined {
  const old = (pod.status?.conditions ?? []).find((c) => c.type === DISRUPTION_TARGET.type);
  const sameStatus = old?.status === DISRUPTION_TARGET.status;
  if (
    sameStatus &&
    old.reason === DISRUPTION_TARGET.reason &&
    old.message === DISRUPTION_TARGET.message &&
    old.lastProbeTime === undefined
  )
    return undefined;
  const generation = pod.metadata.generation ?? 0;
  const lastTransitionTime = sameStatus ? old.lastTransitionTime : rfc3339(now);
  return {
    ...DISRUPTION_TARGET,
    ...(lastTransitionTime === undefined ? {} : { lastTransitionTime }),
    ...(generation === 0 ? {} : { observedGeneration: generation }),
  };
}
