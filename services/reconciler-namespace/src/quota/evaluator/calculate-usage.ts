/* quota.CalculateUsage (k8s.io/apiserver pkg/quota/v1/resources.go). */
import { add, difference, intersection, mask, resourceNames, type ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import type { ScopeSelector } from './evaluator.ts';
import type { Registry } from './registry.ts';

export type { ScopeSelector } from './evaluator.ts';

/**
 * calculateUsage is quota.CalculateUsage (apiserver interfaces.go/resources.go): usage of every evaluator matching
 * hard, in one namespace, with scopes and scope selector. An evaluator whose usage fails (its objects unknown) is
 * left out of the usage and its failure reported; errors also carry the malformed quantities the evaluators skipped.
 */
export function calculateUsage(
  namespace: string,
  scopes: readonly string[],
  hard: ResourceList,
  registry: Registry,
  scopeSelector: ScopeSelector | undefined,
): { usage: ResourceList; errors: string[] } {
  const hardResources = resourceNames(hard);
  const evaluators = registry.list();
  let matched = intersection(
    hardResources,
    evaluators.flatMap((e) => e.matchingResources(hardResources)),
  );
  let usage: ResourceList = {};
  const errors: string[] = [];
  for (const evaluator of evaluators) {
    const resources = evaluator.matchingResources(matched);
    if (resources.length === 0) continue;
    const stats = evaluator.usageStats({ namespace, scopes, resources, scopeSelector });
    errors.push(...stats.errors);
    if (stats.failure !== undefined) {
      errors.push(stats.failure);
      matched = difference(matched, resources);
      continue;
    }
    usage = add(usage, stats.used);
  }
  return { usage: mask(usage, matched), errors };
}
