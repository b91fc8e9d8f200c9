import type { NamespaceCondition } from '@kcm-bus/k8s/core-v1.ts';
import type { NamespaceContentReport } from '@kcm-bus/runtime/mutation/index.ts';
import { NAMESPACE_CONDITION_TYPES } from '@kcm-bus/catalog/controllers.ts';

/*
 * The namespace's deletion conditions from a content pass's report: upstream's namespaceConditionUpdater
 * (pkg/controller/namespace/deletion/status_condition_utils.go), reasons and messages to the letter.
 */

type ConditionType = (typeof NAMESPACE_CONDITION_TYPES)[number];

/** OK are okReasons and okMessages: each condition when nothing went wrong. */
const OK: Readonly<Record<ConditionType, readonly [reason: string, message: string]>> = {
  NamespaceDeletionDiscoveryFailure: ['ResourcesDiscovered', 'All resources successfully discovered'],
  NamespaceDeletionGroupVersionParsingFailure: ['ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  NamespaceDeletionContentFailure: [
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  NamespaceContentRemaining: ['ContentRemoved', 'All content successfully removed'],
  NamespaceFinalizersRemaining: ['ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
};

type Failing = { readonly type: ConditionType; readonly reason: string; readonly message: string };

/**
 * failingConditions are the conditions a report makes true: ProcessDiscoverResourcesErr, ProcessGroupVersionErr,
 * ProcessContentTotals (skipped when pods remain: upstream returns before it, deleting pods first) and
 * makeDeleteContentCondition.
 */
export function failingConditions(r: NamespaceContentReport): readonly Failing[] {
  const out: Failing[] = [];
  // A decoded null comes back absent (schemas/avro: null and absent are alike), hence the loose checks.
  if (r.discoveryError != null) {
    const message =
      r.discoveryFailedGroups == null
        ? r.discoveryError
        : `Discovery failed for some groups, ${r.discoveryFailedGroups} failing: ${r.discoveryError}`;
    out.push({ type: 'NamespaceDeletionDiscoveryFailure', reason: 'DiscoveryFailed', message });
  }
  if (r.groupVersionError != null) {
    const message = r.groupVersionError;
    out.push({ type: 'NamespaceDeletionGroupVersionParsingFailure', reason: 'GroupVersionParsingFailed', message });
  }
  if (!podsRemain(r)) out.push(...contentTotals(r));
  if (r.deleteContentErrors.length > 0) {
    const errors = [...r.deleteContentErrors].sort();
    const message = `Failed to delete all resource types, ${errors.length} remaining: ${errors.join(', ')}`;
    out.push({ type: 'NamespaceDeletionContentFailure', reason: 'ContentDeletionFailed', message });
  }
  return out;
}

/** podsRemain: the pass stopped after the pods, some left (deleteAllContent deletes nothing else then). */
export function podsRemain(r: NamespaceContentReport): boolean {
  return r.remaining.some((c) => c.resource === 'pods' && c.group === '' && c.count > 0);
}

/** contentTotals mirrors ProcessContentTotals: what remains per resource and per finalizer, sorted. */
function contentTotals(r: NamespaceContentReport): Failing[] {
  const out: Failing[] = [];
  const resources = r.remaining
    .filter((c) => c.count > 0)
    .map((c) => `${c.resource}.${c.group} has ${c.count} resource instances`);
  if (resources.length > 0) {
    const message = `Some resources are remaining: ${resources.sort().join(', ')}`;
    out.push({ type: 'NamespaceContentRemaining', reason: 'SomeResourcesRemain', message });
  }
  const finalizers = r.finalizers
    .filter((f) => f.count > 0)
    .map((f) => `${f.finalizer} in ${f.count} resource instances`);
  if (finalizers.length > 0) {
    const message = `Some content in the namespace has finalizers remaining: ${finalizers.sort().join(', ')}`;
    out.push({ type: 'NamespaceFinalizersRemaining', reason: 'SomeFinalizersRemain', message });
  }
  return out;
}

/**
 * updateConditions mirrors updateConditions: each of the five types set to its failing condition or its successful
 * one; an absent one appended, a differing one changed in place (its transition time moved only when its status
 * changed); other conditions kept. changed says whether the status must be written.
 */
export function updateConditions(
  old: readonly NamespaceCondition[],
  failing: readonly Failing[],
  now: Date,
): { readonly conditions: readonly NamespaceCondition[]; readonly changed: boolean } {
  const at = `${now.toISOString().slice(0, 19)}Z`;
  const conditions = [...old];
  let changed = false;
  for (const type of NAMESPACE_CONDITION_TYPES) {
    const failed = failing.find((c) => c.type === type);
    const [reason, message] = failed === undefined ? OK[type] : [failed.reason, failed.message];
    const next = { type, status: failed === undefined ? 'False' : 'True', reason, message } as const;
    const i = conditions.findIndex((c) => c.type === type);
    const was = conditions[i];
    if (was === undefined) conditions.push({ ...next, lastTransitionTime: at });
    else if (was.status !== next.status) conditions[i] = { ...was, ...next, lastTransitionTime: at };
    else if (was.reason !== reason || was.message !== message) conditions[i] = { ...was, ...next };
    else continue;
    changed = true;
  }
  return { conditions, changed };
}
