import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import type { Pod } from '@kcm-bus/k8s/core-v1.ts';
import { labelSelectorMatcher } from '@kcm-bus/k8s/label-selector.ts';
import { isTerminating } from '@kcm-bus/k8s/meta-v1.ts';
import { type MutationLog, mutationLog, patchDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import type { Decision, Lister } from '@kcm-bus/runtime/controller/index.ts';
import type { MutationCause, MutationResult } from '@kcm-bus/runtime/mutation/index.ts';
import { withOptional } from '../decision.ts';
import { getReplicaSetsForDeployment } from './claim-replica-sets.ts';
import { REASONS } from './conditions.ts';
import { type DeploymentFailures, releasedBy, summarizeFailures } from './failures.ts';
import { CONTROLLER, REPLICA_SETS } from './kinds.ts';
import { withCondition } from './new-replica-set.ts';
import { rolloutRecreate } from './recreate.ts';
import { getRollbackTo, rollback } from './rollback.ts';
import { rolloutRolling } from './rolling.ts';
import { hasProgressDeadline, RECREATE, ROLLING_UPDATE, strategyTypeOf } from './spec.ts';
import { type Requeue, type SyncContext, SyncError } from './sync-context.ts';
import { checkPausedConditions, isScalingEvent, sync, syncStatusOnly } from './sync.ts';
import { DeploymentView } from './view.ts';

/**
 * SyncInput is everything one sync of a Deployment reads: the listers (Deployments; ReplicaSets by namespace and
 * controllerUID; pods by controllerUID), the Failed, Conflict and Refused results of its writes since its last
 * sync, the clock, whether the stores are known complete up to an earlier sync's fresh read, and the input offsets
 * (with the attempt) its mutations name as their cause.
 */
export type SyncInput = {
  readonly deployments: Lister<Deployment>;
  readonly replicaSets: Lister<ReplicaSet>;
  readonly pods: Lister<Pod>;
  readonly failures: readonly MutationResult[];
  readonly now: Date;
  readonly fresh: boolean;
  readonly cause: readonly MutationCause[];
  readonly attempt?: number;
};

/**
 * syncDeployment mirrors deployment_controller.go syncDeployment as one pure sync on a local view (DeploymentView):
 * upstream's calls one after the other, each reading what the previous wrote, are simulated, and the writes go out
 * together, folded per object. Upstream stops at the first failed call; here a write's outcome comes back as a
 * result after the sync, so the writes after a failing one are published too, and the next sync begins by handling
 * the failures as upstream handled that call's error (sync ends with the error, or with the FailedRSCreate
 * condition and event, or quietly for a namespace being terminated), then decides afresh. Where upstream reads the
 * Deployment live (canAdopt's uncached GET before adopting), the sync asks for a fresh read and adopts in the next,
 * whose adopted ReplicaSets count once their patches applied.
 */
export function syncDeployment(key: string, input: SyncInput): Decision {
  const d = input.deployments.get(key);
  if (d === undefined) return { mutations: [] };
  const log = mutationLog(CONTROLLER, key, input.cause, input.now, input.attempt);
  if (selectsAll(d)) return selectingAll(d, log);
  const selector = labelSelectorMatcher(d.spec.selector);
  if ('error' in selector)
    return { mutations: [], error: `deployment ${key} has invalid label selector: ${selector.error}` };
  const failures = summarizeFailures(input.failures, releasedBy(selector.matches, input.replicaSets));
  const reported = reportFailures(d, failures, input.now, log);
  if (reported !== undefined) return reported;
  const claim = getReplicaSetsForDeployment(d, selector.matches, input.replicaSets);
  const adopts = claim.actions.some((a) => a.type === 'Adopt');
  if (adopts && !input.fresh) return { mutations: [], freshRead: true };
  for (const a of claim.actions) log.push(patchDraft(REPLICA_SETS, a.object.metadata, a.ops));
  if (adopts) return { mutations: log.mutations() };
  const s: SyncContext = {
    view: new DeploymentView(d, claim.claimed),
    replicaSets: input.replicaSets,
    pods: input.pods,
    now: input.now,
  };
  return finish(s, log);
}

/** finish runs upstream's steps after the claim, and publishes the view's writes with the step's error or requeue. */
function finish(s: SyncContext, log: MutationLog): Decision {
  let requeueAfterMs: Requeue;
  let error: string | undefined;
  try {
    requeueAfterMs = syncClaimed(s);
  } catch (err) {
    if (!(err instanceof SyncError)) throw err;
    error = err.message;
  }
  s.view.publish(log);
  return withOptional({ mutations: log.mutations(), error, requeueAfterMs });
}

/**
 * syncClaimed is syncDeployment after getReplicaSetsForDeployment: a Deployment being deleted only syncs its status;
 * paused conditions; a paused Deployment scales (sync); a rollback asked for; a scaling event; else the rollout of
 * its strategy.
 */
function syncClaimed(s: SyncContext): Requeue {
  if (isTerminating(s.view.deployment.metadata)) return syncStatusOnly(s);
  checkPausedConditions(s);
  const d = s.view.deployment;
  if (d.spec.paused === true) return sync(s);
  const rollbackTo = getRollbackTo(d);
  if (rollbackTo !== undefined) return rollback(s, rollbackTo);
  if (isScalingEvent(s)) return sync(s);
  const strategy = strategyTypeOf(d);
  if (strategy === RECREATE) return rolloutRecreate(s);
  if (strategy === ROLLING_UPDATE) return rolloutRolling(s);
  throw new SyncError(`unexpected deployment strategy type: ${strategy}`);
}

/** selectsAll is syncDeployment's test against an empty metav1.LabelSelector{} (absent and empty fields alike on the wire). */
function selectsAll(d: Deployment): boolean {
  const selector = d.spec.selector;
  return (
    selector != null &&
    Object.keys(selector.matchLabels ?? {}).length === 0 &&
    (selector.matchExpressions ?? []).length === 0
  );
}

/**
 * selectingAll is syncDeployment's answer to a Deployment selecting every pod: a SelectingAll warning, and the status
 * write of its observedGeneration when behind; nothing else, no error.
 */
function selectingAll(d: Deployment, log: MutationLog): Decision {
  const view = new DeploymentView(d, []);
  view.event('Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
  const generation = d.metadata.generation ?? 0;
  if ((d.status?.observedGeneration ?? 0) < generation)
    view.updateStatus({ ...d, status: { ...d.status, observedGeneration: generation } });
  view.publish(log);
  return { mutations: log.mutations() };
}

/**
 * reportFailures ends the sync as upstream's ended at the failed call: quietly for a ReplicaSet create into a
 * terminating namespace; with the Progressing=False ReplicaSetCreateError condition (with a deadline) and a warning
 * for another failed create; with the error for any other failed write. Undefined when nothing failed.
 */
function reportFailures(d: Deployment, f: DeploymentFailures, now: Date, log: MutationLog): Decision | undefined {
  if (f.namespaceTerminating) return { mutations: [] };
  const [failed] = f.failedCreates;
  if (failed !== undefined) {
    const view = new DeploymentView(d, []);
    const message = `Failed to create new replica set ${JSON.stringify(failed.name ?? failed.target.name)}: ${failed.message}`;
    if (hasProgressDeadline(d))
      view.updateStatus(withCondition(d, 'False', REASONS.FailedRSCreateReason, message, now));
    view.event('Warning', REASONS.FailedRSCreateReason, message);
    view.publish(log);
    return { mutations: log.mutations(), error: failed.message };
  }
  return f.errors.length === 0 ? undefined : { mutations: [], error: f.errors.join('; ') };
}
