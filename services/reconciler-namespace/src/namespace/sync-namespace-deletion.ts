import type { Namespace } from '@kcm-bus/k8s/core-v1.ts';
import {
  mutationLog,
  type MutationLog,
  namespaceCommandDraft,
  updateStatusDraft,
} from '@kcm-bus/k8s/mutation-drafts.ts';
import type { Decision, Lister, ReconcileInput } from '@kcm-bus/runtime/controller/index.ts';
import type { MutationResult, NamespaceContentReport } from '@kcm-bus/runtime/mutation/index.ts';
import { NAMESPACE_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { syncError } from '../write-failures.ts';
import { failingConditions, updateConditions } from './conditions.ts';

/** NAMESPACES is the kind the controller writes. */
const NAMESPACES = watchedKind('namespaces');

/**
 * syncNamespaceDeletion mirrors namespacedResourcesDeleter.Delete for a namespace of the store, one step per sync:
 * nothing for a namespace gone or not being deleted; its phase set Terminating (updateNamespaceStatusFunc); nothing
 * more once finalized (no finalizer in its spec). Then the content: without a report of a pass begun after its
 * deletion, a DeleteNamespaceContent (the writer's deleteAllContent, whose result brings the report back to this
 * key); with one, reportStep. Failed writes of an earlier sync (the namespace gone aside) are its error, retried
 * after the backoff.
 */
export function syncNamespaceDeletion(key: string, input: ReconcileInput, namespaces: Lister<Namespace>): Decision {
  const error = syncError(input.failures, (r) => r.status === 404);
  if (error !== undefined) return { mutations: [], error };
  const ns = namespaces.get(key);
  const deletedAt = ns?.metadata.deletionTimestamp;
  if (ns === undefined || deletedAt === undefined) return { mutations: [] };
  const log = mutationLog(NAMESPACE_CONTROLLER.name, key, input.cause, input.now, input.attempt);
  if (ns.status?.phase !== 'Terminating')
    log.push(updateStatusDraft(NAMESPACES, ns, { ...ns.status, phase: 'Terminating' }));
  if ((ns.spec?.finalizers ?? []).length === 0) return { mutations: log.mutations() };
  const report = currentReport(input.report, deletedAt);
  if (report === undefined || log.mutations().length > 0) {
    log.push(namespaceCommandDraft(NAMESPACES, 'DeleteNamespaceContent', ns.metadata));
    return { mutations: log.mutations() };
  }
  return reportStep(ns, report, log, input.now);
}

/** currentReport is the report of a result that came after the namespace's deletion began (not an older one's). */
function currentReport(result: MutationResult | undefined, deletedAt: string): NamespaceContentReport | undefined {
  const report = result?.contentReport ?? undefined;
  return report !== undefined && Date.parse(result!.appliedAt) >= Date.parse(deletedAt) ? report : undefined;
}

/**
 * reportStep is the rest of Delete after deleteAllContent: the conditions the report makes, written when they changed;
 * then the pass's errors as the sync's error (rate-limited; the next sync runs a new pass), or, with content left, a
 * look again after upstream's estimate/2+1 seconds (ResourcesRemainingError); or, nothing left, the finalizer removed
 * (finalizeNamespace: a FinalizeNamespace the writer applies to the live namespace, after the conditions' write).
 */
function reportStep(ns: Namespace, report: NamespaceContentReport, log: MutationLog, now: Date): Decision {
  const { conditions, changed } = updateConditions(ns.status?.conditions ?? [], failingConditions(report), now);
  if (changed) log.push(updateStatusDraft(NAMESPACES, ns, { ...ns.status, conditions }));
  const errors = passErrors(report);
  if (errors.length > 0) return { mutations: log.mutations(), error: errors.join(', ') };
  if (report.estimateSeconds > 0) {
    const requeueAfterMs = (Math.floor(report.estimateSeconds / 2) + 1) * 1000;
    return { mutations: log.mutations(), requeueAfterMs };
  }
  log.push(namespaceCommandDraft(NAMESPACES, 'FinalizeNamespace', ns.metadata));
  return { mutations: log.mutations() };
}

/**
 * passErrors are the errors deleteAllContent returns aggregated: discovery's, parsing's and each deletion's (a decoded
 * null comes back absent, hence the loose check).
 */
function passErrors(r: NamespaceContentReport): readonly string[] {
  return [r.discoveryError, r.groupVersionError, ...r.deleteContentErrors].filter((e): e is string => e != null);
}
