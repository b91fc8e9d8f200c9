import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { PodTemplateSpec } from '@kcm-bus/k8s/core-v1.ts';
import type { MutationDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import {
  DEPRECATED_ROLLBACK_TO,
  lastRevision,
  parseInt64,
  revision,
  setDeploymentAnnotationsTo,
  withAnnotations,
} from './annotations.ts';
import { equalIgnoreHash, POD_TEMPLATE_HASH } from './hash.ts';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.ts';
import type { Requeue, SyncContext } from './sync-context.ts';

/** ROLLBACK_REVISION_NOT_FOUND is deploymentutil.RollbackRevisionNotFound, an event reason. */
export const ROLLBACK_REVISION_NOT_FOUND = 'DeploymentRollbackRevisionNotFound';

/** ROLLBACK_TEMPLATE_UNCHANGED is deploymentutil.RollbackTemplateUnchanged, an event reason. */
export const ROLLBACK_TEMPLATE_UNCHANGED = 'DeploymentRollbackTemplateUnchanged';

/** ROLLBACK_DONE is deploymentutil.RollbackDone, the reason of the event of a rollback done. */
export const ROLLBACK_DONE = 'DeploymentRollback';

/**
 * rollback mirrors rollback.go rollback: roll the Deployment back to the template of the ReplicaSet of the revision
 * its deprecated rollback annotation names (0: the one before the current), or give up with a warning when there is
 * none; in every case the annotation is cleared with an Update, which ends the sync.
 */
export function rollback(s: SyncContext, to: bigint): Requeue {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(s, true);
  const allRSs = [...oldRSs, newRS];
  const revisionTo = to === 0n ? lastRevision(allRSs) : to;
  if (revisionTo === 0n) {
    s.view.event('Warning', ROLLBACK_REVISION_NOT_FOUND, 'Unable to find last revision.');
    return updateDeploymentAndClearRollbackTo(s, s.view.deployment);
  }
  const target = allRSs.find((rs) => {
    const r = revision(rs);
    return 'value' in r && r.value === revisionTo;
  });
  if (target !== undefined) return rollbackToTemplate(s, target, revisionTo);
  s.view.event('Warning', ROLLBACK_REVISION_NOT_FOUND, 'Unable to find the revision to rollback to.');
  return updateDeploymentAndClearRollbackTo(s, s.view.deployment);
}

/**
 * rollbackToTemplate mirrors rollback.go rollbackToTemplate: a ReplicaSet of another template gives the Deployment its
 * template (without the hash label) and annotations, announced once the Update succeeded; the same template is
 * warned about, and only the rollback annotation cleared.
 */
function rollbackToTemplate(s: SyncContext, rs: ReplicaSet, revisionTo: bigint): Requeue {
  const d = s.view.deployment;
  if (equalIgnoreHash(d.spec.template, rs.spec.template)) {
    const message = `The rollback revision contains the same template as current deployment ${JSON.stringify(d.metadata.name)}`;
    s.view.event('Warning', ROLLBACK_TEMPLATE_UNCHANGED, message);
    return updateDeploymentAndClearRollbackTo(s, d);
  }
  const rolledBack = setDeploymentAnnotationsTo(setFromReplicaSetTemplate(d, rs.spec.template), rs);
  const message = `Rolled back deployment ${JSON.stringify(d.metadata.name)} to revision ${revisionTo}`;
  return updateDeploymentAndClearRollbackTo(s, rolledBack, s.view.eventDraft('Normal', ROLLBACK_DONE, message));
}

/**
 * updateDeploymentAndClearRollbackTo mirrors its namesake: the Deployment updated without its rollback annotation.
 * When this sync already writes the Deployment's status, that Update would carry the same resourceVersion and meet
 * 409 Conflict (as upstream's does, which then retries): it is left to the next sync, which the status write's event
 * brings.
 */
function updateDeploymentAndClearRollbackTo(s: SyncContext, d: Deployment, outcomeEvent?: MutationDraft): Requeue {
  if (s.view.writesStatus()) return undefined;
  const { [DEPRECATED_ROLLBACK_TO]: _cleared, ...annotations } = d.metadata.annotations ?? {};
  s.view.update(withAnnotations(d, annotations), outcomeEvent);
  return undefined;
}

/**
 * setFromReplicaSetTemplate mirrors deploymentutil.SetFromReplicaSetTemplate: the ReplicaSet's template as the
 * Deployment's, its pod-template-hash label removed.
 */
function setFromReplicaSetTemplate(d: Deployment, template: PodTemplateSpec | undefined): Deployment {
  const { [POD_TEMPLATE_HASH]: _hash, ...labels } = template?.metadata?.labels ?? {};
  return { ...d, spec: { ...d.spec, template: { ...template, metadata: { ...template?.metadata, labels } } } };
}

/** getRollbackTo mirrors rollback.go getRollbackTo: the revision the deprecated annotation asks for; none when absent or not an integer. */
export function getRollbackTo(d: Deployment): bigint | undefined {
  const parsed = parseInt64(d.metadata.annotations?.[DEPRECATED_ROLLBACK_TO] ?? '');
  return 'value' in parsed ? parsed.value : undefined;
}
