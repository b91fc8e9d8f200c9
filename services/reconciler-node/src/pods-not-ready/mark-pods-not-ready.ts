import type { Pod, PodStatus } from '@kcm-bus/k8s/core-v1.ts';
import {
  type MutationDraft,
  recordEventDraft,
  updateStatusDraft,
  withOutcomeEvent,
} from '@kcm-bus/k8s/mutation-drafts.ts';
import { rfc3339 } from '@kcm-bus/k8s/meta-v1.ts';
import { podReadyCondition } from '@kcm-bus/k8s/pod-util.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { NODE_CONTROLLER_SOURCE } from '../controller-names.ts';

/** PODS is the kind MarkPodsNotReady writes and records its event about. */
const PODS = watchedKind('pods');

/**
 * markPodNotReady is MarkPodsNotReady (pkg/controller/util/node/controller_utils.go) for one pod: a pod with a
 * Ready condition that is not already False gets it set to False, lastTransitionTime now and reason and message
 * kept (UpdatePodCondition), by UpdateStatus; the Warning event NodeNotReady "Node is not ready" goes with the write
 * and is recorded once it applied (upstream records it after an UpdateStatus that did not answer NotFound). A pod
 * without a Ready condition, or already not ready, needs nothing (undefined).
 */
export function markPodNotReady(pod: Pod, now: Date): MutationDraft | undefined {
  const ready = podReadyCondition(pod);
  if (ready === undefined || ready.status === 'False') return undefined;
  const conditions = (pod.status?.conditions ?? []).map((c) =>
    c === ready ? { ...c, status: 'False' as const, lastTransitionTime: rfc3339(now) } : c,
  );
  const status: PodStatus = { ...pod.status, conditions };
  const event = recordEventDraft(
    NODE_CONTROLLER_SOURCE,
    { ...PODS, metadata: pod.metadata },
    'Warning',
    'NodeNotReady',
    'Node is not ready',
  );
  return withOutcomeEvent(updateStatusDraft(PODS, pod, status), event);
}
