import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import type { Indexers } from '@kcm-bus/runtime/store/index.ts';

/** POD_NODE_NAME_INDEX is upstream's controller.PodNodeNameKeyIndex: the pods index by spec.nodeName. */
export const POD_NODE_NAME_INDEX = 'spec.nodeName';

/**
 * byPodNodeName indexes a pod under its spec.nodeName; a pod not bound to a node is in no entry. Mirrors the
 * index function of controller.AddPodNodeNameIndexer (getPodsAssignedToNode of node lifecycle and taint eviction).
 */
export function byPodNodeName(pod: Pod): readonly string[] {
  const nodeName = pod.spec?.nodeName ?? '';
  return nodeName === '' ? [] : [nodeName];
}

/** POD_NODE_NAME_INDEXERS are the pods input's indexers both pod controllers of reconciler-node need. */
export const POD_NODE_NAME_INDEXERS: Indexers<Pod> = { [POD_NODE_NAME_INDEX]: byPodNodeName };
