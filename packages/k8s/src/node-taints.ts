/*
 * Taint helpers of pkg/util/taints and the node controller's taint writes (controller_utils.go), on plain taint
 * lists: pure, so a controller computes the node's new taints and publishes them as one patch.
 */
import { rfc3339 } from './meta-v1.ts';
import type { Node, Taint } from './node-v1.ts';

/** TaintRef names a taint by what makes it unique on a node: its key and effect (value and timeAdded aside). */
export type TaintRef = Pick<Taint, 'key' | 'effect'>;

/** matchTaint mirrors Taint.MatchTaint: taints are unique by key:effect. */
export function matchTaint(a: TaintRef, b: TaintRef): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** taintExists mirrors taintutils.TaintExists: a taint of the list matches `find`. */
export function taintExists(taints: readonly Taint[] | undefined, find: TaintRef): boolean {
  return (taints ?? []).some((t) => matchTaint(t, find));
}

/** taintSetDiff mirrors taintutils.TaintSetDiff: the taints of `next` missing from `old`, and those of `old` missing from `next`. */
export function taintSetDiff(
  next: readonly Taint[],
  old: readonly Taint[],
): { readonly toAdd: Taint[]; readonly toRemove: Taint[] } {
  return { toAdd: next.filter((t) => !taintExists(old, t)), toRemove: old.filter((t) => !taintExists(next, t)) };
}

/**
 * addOrUpdateTaint mirrors taintutils.AddOrUpdateTaint: a matching taint is replaced in place unless equal, a new
 * one is appended last. Returns the same list when nothing changed.
 */
export function addOrUpdateTaint(taints: readonly Taint[], taint: Taint): readonly Taint[] {
  const i = taints.findIndex((t) => matchTaint(t, taint));
  if (i < 0) return [...taints, taint];
  const current = taints[i]!;
  const same = current.value === taint.value && current.timeAdded === taint.timeAdded;
  return same ? taints : taints.map((t, j) => (j === i ? taint : t));
}

/** removeTaint mirrors taintutils.DeleteTaint: the list without taints matching `taint`; the same list when none matched. */
export function removeTaint(taints: readonly Taint[], taint: TaintRef): readonly Taint[] {
  return taintExists(taints, taint) ? taints.filter((t) => !matchTaint(t, taint)) : taints;
}

/**
 * swapNodeControllerTaint mirrors controllerutil.SwapNodeControllerTaint on a taint list: every taint to add is
 * stamped timeAdded = now (upstream stamps each added taint, whatever its effect), added or updated
 * (AddOrUpdateTaintOnNode), then the taints to remove are removed (RemoveTaintOffNode).
 */
export function swapNodeControllerTaint(
  taints: readonly Taint[],
  toAdd: readonly TaintRef[],
  toRemove: readonly TaintRef[],
  now: Date,
): readonly Taint[] {
  const timeAdded = rfc3339(now);
  const added = toAdd.reduce((list, t) => addOrUpdateTaint(list, { key: t.key, effect: t.effect, timeAdded }), taints);
  return toRemove.reduce(removeTaint, added);
}

/** Zone labels GetZoneKey reads: the deprecated beta labels win over the topology ones. */
const LABEL_FAILURE_DOMAIN_BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const LABEL_FAILURE_DOMAIN_BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';

/**
 * getZoneKey mirrors component-helpers' topology.GetZoneKey: `region:\0:zone` from the failure-domain.beta labels,
 * each falling back to its topology.kubernetes.io label; '' when a node has neither region nor zone.
 */
export function getZoneKey(node: Pick<Node, 'metadata'>): string {
  const labels = node.metadata.labels;
  if (labels === undefined) return '';
  const zone = labels[LABEL_FAILURE_DOMAIN_BETA_ZONE] ?? labels[LABEL_TOPOLOGY_ZONE] ?? '';
  const region = labels[LABEL_FAILURE_DOMAIN_BETA_REGION] ?? labels[LABEL_TOPOLOGY_REGION] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}
