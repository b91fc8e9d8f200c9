import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import type { Version } from './history-format.ts';
import { at, type Json } from './object-diff.ts';

/** REVISION is the annotation the Deployment controller numbers a Deployment's ReplicaSets with (deploymentutil.RevisionAnnotation). */
const REVISION = 'deployment.kubernetes.io/revision';

/** revisionOf reads the revision annotation (its key has dots, which `at` would split on); 0 when absent. */
function revisionOf(o: Json | undefined): number {
  const annotations = at(o, 'metadata.annotations');
  const value =
    typeof annotations === 'object' && annotations !== null
      ? (annotations as Record<string, Json>)[REVISION]
      : undefined;
  return Number(value ?? 0);
}
const replicasOf = (o: Json | undefined, absent: number): number => {
  const r = at(o, 'spec.replicas');
  return typeof r === 'number' ? r : absent;
};

/** strategyOf is a Deployment's strategy in brief: `Recreate`, or `RollingUpdate, maxSurge 25%, maxUnavailable 25%`. */
function strategyOf(d: Json): string {
  if (at(d, 'spec.strategy.type') === 'Recreate') return 'Recreate';
  const bound = (field: string): string => String(at(d, `spec.strategy.rollingUpdate.${field}`) ?? '25%');
  return `RollingUpdate, maxSurge ${bound('maxSurge')}, maxUnavailable ${bound('maxUnavailable')}`;
}

/**
 * explainRollout tells a Deployment controller's write of a ReplicaSet in the rollout's words, as its
 * ScalingReplicaSet event would and more: the revision rolling out (the Deployment's, or the new ReplicaSet's when
 * this sync created it), the step (`scaled up from 2 to 4 of 10 replicas`), the ReplicaSet's own revision when it is
 * an old one, and the Deployment's strategy. `before` is the ReplicaSet as it was; `deployments` the Deployment's
 * history; undefined when trace holds no version of the Deployment from before the write.
 */
export function explainRollout(
  m: Mutation,
  before: Version | undefined,
  deployments: readonly Version[],
  when: number,
): string | undefined {
  const d = deployments.filter((v) => v.timestamp <= when).at(-1)?.object;
  if (d === undefined) return undefined;
  const rs = m.body === null ? before?.object : (JSON.parse(m.body) as Json);
  const rolling = Math.max(revisionOf(d), revisionOf(rs));
  const own = revisionOf(rs) === rolling ? '' : `, the old ReplicaSet of revision ${revisionOf(rs)}`;
  const head = `rollout of revision ${rolling} of Deployment ${m.reconcileKey ?? ''}`;
  const tail = `(${strategyOf(d)})`;
  if (m.verb === 'Delete') return `${head}: cleaned up${own} ${tail}`;
  const [from, to] = [m.verb === 'Create' ? 0 : replicasOf(before?.object, 1), replicasOf(rs, 1)];
  if (from === to) return `${head}: annotations and settings synced${own} ${tail}`;
  const step = `scaled ${to > from ? 'up' : 'down'} from ${from} to ${to} of ${replicasOf(d, 1)} replicas`;
  return `${head}: ${step}${own} ${tail}`;
}
