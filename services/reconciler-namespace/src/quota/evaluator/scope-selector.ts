/*
 * Scope selector requirements on a class name (PriorityClass for pods, VolumeAttributesClass for claims):
 * helper.ScopedResourceSelectorRequirementsAsSelector (pkg/apis/core/v1/helper/helpers.go) and the label-set tests of
 * pods.go's podMatchesSelector and persistent_volume_claims.go's pvcMatchesSelector.
 */
import { labelSelectorMatcher, type SelectorOrError } from '@kcm-bus/k8s/label-selector.ts';
import type { ScopeMatch, ScopeRequirement } from './evaluator.ts';

const OPERATORS: ReadonlySet<string> = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/**
 * scopedRequirementAsSelector is ScopedResourceSelectorRequirementsAsSelector: the requirement as a label selector on
 * the key scopeName, or its error (an unknown operator; values where none or some are wanted; a bad value).
 */
export function scopedRequirementAsSelector(r: ScopeRequirement): SelectorOrError {
  if (!OPERATORS.has(r.operator))
    return { error: `${JSON.stringify(r.operator)} is not a valid scope selector operator` };
  return labelSelectorMatcher({
    matchExpressions: [{ key: r.scopeName, operator: r.operator, values: r.values ?? [] }],
  });
}

/**
 * classesMatchSelector is podMatchesSelector / pvcMatchesSelector: whether the label set {scopeName: class} of one of
 * the object's classes matches the requirement (the empty set when it has none).
 */
export function classesMatchSelector(r: ScopeRequirement, classes: readonly string[]): ScopeMatch {
  const selector = scopedRequirementAsSelector(r);
  if ('error' in selector) return { error: `failed to parse and convert selector: ${selector.error}` };
  if (classes.length === 0) return { matches: selector.matches({}) };
  return { matches: classes.some((c) => selector.matches({ [r.scopeName]: c })) };
}
