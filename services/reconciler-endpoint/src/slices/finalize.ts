import type { Service } from '@kcm-bus/k8s/core-v1.ts';
import { ENDPOINT_SLICES, type EndpointSlice } from '@kcm-bus/k8s/discovery-v1.ts';
import { isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { createDraft, deleteDraft, type MutationDraft, updateDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import { ownedBy, withTriggerTime } from './slice-meta.ts';

/** SliceWrites are finalize's API calls as drafts, in its order: creates, updates, deletes. */
export type SliceWrites = {
  readonly creates: readonly MutationDraft[];
  readonly updates: readonly MutationDraft[];
  readonly deletes: readonly MutationDraft[];
  /** changed is numSlicesChanged: creates (even those skipped for a Service being deleted), updates and deletes. */
  readonly changed: number;
};

/**
 * finalize mirrors Reconciler.finalize: a slice to create takes over a slice to delete of the same address type
 * owned by the Service (an update under the old name, guarded by its uid and resourceVersion where upstream's PUT
 * goes unconditional); no create while the Service is being deleted (the garbage collector is deleting its
 * slices); every slice written carries the trigger-time annotation (or loses it); deletes are guarded by uid.
 */
export function finalize(
  service: Service,
  toCreate: readonly EndpointSlice[],
  toUpdate: readonly EndpointSlice[],
  toDelete: readonly EndpointSlice[],
  triggerTime: number | undefined,
): SliceWrites {
  const creates = [...toCreate];
  const updates = [...toUpdate];
  const deletes = [...toDelete];
  for (let i = 0; i < deletes.length && creates.length > 0;) {
    const old = deletes[i]!;
    const slice = creates.at(-1)!;
    if (old.addressType === slice.addressType && ownedBy(old, service)) {
      creates.pop();
      updates.push(takeOver(slice, old));
      deletes.splice(i, 1);
    } else i++;
  }
  const createNow = isTerminating(service.metadata) ? [] : creates;
  return {
    creates: createNow.map((s) =>
      createDraft(ENDPOINT_SLICES, s.metadata.namespace, createBody(withTriggerTime(s, triggerTime))),
    ),
    updates: updates.map((s) => updateDraft(ENDPOINT_SLICES, withTriggerTime(s, triggerTime))),
    deletes: deletes.map((s) => deleteDraft(ENDPOINT_SLICES, s.metadata)),
    changed: creates.length + updates.length + deletes.length,
  };
}

/** takeOver is the new slice under the old one's name, uid and resourceVersion (the update's preconditions). */
function takeOver(slice: EndpointSlice, old: EndpointSlice): EndpointSlice {
  const { uid, resourceVersion } = old.metadata;
  return {
    ...slice,
    metadata: {
      ...slice.metadata,
      name: old.metadata.name,
      uid,
      ...(resourceVersion !== undefined ? { resourceVersion } : {}),
    },
  };
}

/** createBody is a new slice as POSTed: typed, without the empty name and uid it was built with (generateName names it). */
function createBody(slice: EndpointSlice): object {
  const { name, uid: _uid, ...metadata } = slice.metadata;
  return {
    apiVersion: ENDPOINT_SLICES.apiVersion,
    kind: ENDPOINT_SLICES.kind,
    ...slice,
    metadata: name === '' ? metadata : { ...metadata, name },
  };
}
