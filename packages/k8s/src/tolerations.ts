/*
 * Toleration matching as k8s.io/api (core/v1 toleration.go) and the core v1 helpers define it, and the taint
 * eviction controller's minimum tolerationSeconds. The comparison operators Lt and Gt sit behind the alpha gate
 * TaintTolerationComparisonOperators, off in v1.37: such a toleration tolerates nothing, as upstream's does then.
 */
import type { Taint, Toleration } from './node-v1.ts';

/**
 * toleratesTaint is Toleration.ToleratesTaint (gate TaintTolerationComparisonOperators off): the effects match or
 * the toleration's is empty, the keys match or the toleration's is empty, and either the operator is Exists or it is
 * Equal (absent means Equal) with the same value. Any other operator tolerates nothing.
 */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if ((toleration.effect ?? '') !== '' && toleration.effect !== taint.effect) return false;
  if ((toleration.key ?? '') !== '' && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? 'Equal') {
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/**
 * MatchingTolerations is GetMatchingTolerations' answer: whether every taint is tolerated, and then, for each taint
 * in order, the first toleration that tolerates it (empty when not all are).
 */
export type MatchingTolerations = { readonly allTolerated: boolean; readonly used: readonly Toleration[] };

/** getMatchingTolerations is v1helper.GetMatchingTolerations (pkg/apis/core/v1/helper): no taints are all tolerated. */
export function getMatchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): MatchingTolerations {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const match = tolerations.find((t) => toleratesTaint(t, taint));
    if (match === undefined) return { allTolerated: false, used: [] };
    used.push(match);
  }
  return { allTolerated: true, used };
}

/**
 * getMinTolerationTime is tainteviction's getMinTolerationTime in milliseconds: 0 for no tolerations or for any
 * tolerationSeconds <= 0 (evict now), else the smallest tolerationSeconds set, and Infinity (upstream's -1) when none
 * sets one: the taints are tolerated forever.
 */
export function getMinTolerationTime(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const { tolerationSeconds } of tolerations) {
    if (tolerationSeconds === undefined) continue;
    if (tolerationSeconds <= 0) return 0;
    min = Math.min(min, tolerationSeconds * 1000);
  }
  return min;
}
