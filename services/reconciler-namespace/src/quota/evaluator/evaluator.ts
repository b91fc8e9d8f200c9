/*
 * The evaluator contract (k8s.io/apiserver pkg/quota/v1 interfaces.go, as far as the quota controller uses it) and the
 * generic parts of pkg/quota/v1/generic/evaluator.go: CalculateUsageStats, the object-count evaluator and its names.
 */
import { quantityOf } from '@kcm-bus/k8s/quantity.ts';
import { add, intersection, type ResourceList } from '@kcm-bus/k8s/quota-resources.ts';

/** ScopeRequirement is corev1.ScopedResourceSelectorRequirement. */
export type ScopeRequirement = {
  readonly scopeName: string;
  readonly operator: string;
  readonly values?: readonly string[];
};

/** ScopeSelector is corev1.ScopeSelector. */
export type ScopeSelector = { readonly matchExpressions?: readonly ScopeRequirement[] };

/** ScopeMatch is a MatchesScopeFunc's answer: whether the object is in the scope, or the error. */
export type ScopeMatch = { readonly matches: boolean } | { readonly error: string };

/** ObjectUsage is an evaluator's Usage of one object, and the malformed quantities it left out (to log). */
export type ObjectUsage = { readonly usage: ResourceList; readonly errors: readonly string[] };

/** UsageStatsOptions is quota.UsageStatsOptions. */
export type UsageStatsOptions = {
  readonly namespace: string;
  readonly scopes: readonly string[];
  readonly resources: readonly string[];
  readonly scopeSelector: ScopeSelector | undefined;
};

/** UsageStats is UsageStats' result: the usage, the error upstream returns (failure), and what is only logged. */
export type UsageStats = { readonly used: ResourceList; readonly failure?: string; readonly errors: readonly string[] };

/** Evaluator is quota.Evaluator, the part the quota controller calls. */
export type Evaluator = {
  readonly groupResource: string;
  /** matchingResources is MatchingResources: the names of input this evaluator measures. */
  matchingResources(input: readonly string[]): string[];
  /** matchesScope is the evaluator's MatchesScopeFunc. */
  matchesScope(requirement: ScopeRequirement, item: unknown): ScopeMatch;
  /** usage is Usage: what one object uses. */
  usage(item: unknown): ObjectUsage;
  /** usageStats is UsageStats: what the objects of a namespace in the scopes use. */
  usageStats(options: UsageStatsOptions): UsageStats;
};

const ZERO = quantityOf(0, 'DecimalSI');
const ONE = quantityOf(1, 'DecimalSI');
const NO_MATCH: ScopeMatch = { matches: false };

/** matchesNoScope is generic.MatchesNoScopeFunc: no object is in any scope. */
export function matchesNoScope(): ScopeMatch {
  return NO_MATCH;
}

/** objectCountQuotaResourceNameFor is generic.ObjectCountQuotaResourceNameFor: `count/<resource>[.<group>]`. */
export function objectCountQuotaResourceNameFor(groupResource: string): string {
  return `count/${groupResource}`;
}

/**
 * calculateUsageStats is generic.CalculateUsageStats: each of options.resources at zero, plus the usage of every
 * object that matches all the quota's scopes (each as an Exists requirement) and selector requirements. objects
 * undefined is the lister's error. A scope's error ends the sum without an error, as upstream's does.
 */
export function calculateUsageStats(
  options: UsageStatsOptions,
  objects: readonly unknown[] | undefined,
  evaluator: Pick<Evaluator, 'groupResource' | 'matchesScope' | 'usage'>,
): UsageStats {
  let used: ResourceList = Object.fromEntries(options.resources.map((name) => [name, ZERO]));
  if (objects === undefined) {
    return { used, failure: `failed to list content: ${evaluator.groupResource} is not known`, errors: [] };
  }
  const requirements: readonly ScopeRequirement[] = [
    ...options.scopes.map((scopeName) => ({ scopeName, operator: 'Exists' })),
    ...(options.scopeSelector?.matchExpressions ?? []),
  ];
  const errors: string[] = [];
  for (const item of objects) {
    const matches = requirements.map((r) => evaluator.matchesScope(r, item));
    if (matches.some((m) => 'error' in m)) return { used, errors };
    if (!matches.every((m) => 'matches' in m && m.matches)) continue;
    const { usage, errors: malformed } = evaluator.usage(item);
    errors.push(...malformed);
    used = add(used, usage);
  }
  return { used, errors };
}

/**
 * matchingScopes is an evaluator's MatchingScopes: the selectors the object matches, or the first error (as
 * `error on matching scope {name operator [values]}: …`, Go's %v of the requirement).
 */
export function matchingScopes(
  evaluator: Evaluator,
  item: unknown,
  selectors: readonly ScopeRequirement[],
): { readonly scopes: readonly ScopeRequirement[]; readonly error?: string } {
  const scopes: ScopeRequirement[] = [];
  for (const s of selectors) {
    const m = evaluator.matchesScope(s, item);
    if ('error' in m) {
      const shown = `{${s.scopeName} ${s.operator} [${(s.values ?? []).join(' ')}]}`;
      return { scopes: [], error: `error on matching scope ${shown}: ${m.error}` };
    }
    if (m.matches) scopes.push(s);
  }
  return { scopes };
}

/**
 * objectCountEvaluator is generic.NewObjectCountEvaluator: one per object under `count/<group resource>` and the
 * legacy alias if any; no scope matches.
 */
export function objectCountEvaluator(
  groupResource: string,
  list: (namespace: string) => readonly unknown[] | undefined,
  alias?: string,
): Evaluator {
  const names = [objectCountQuotaResourceNameFor(groupResource), ...(alias === undefined ? [] : [alias])];
  const usage = Object.fromEntries(names.map((name) => [name, ONE]));
  const evaluator: Evaluator = {
    groupResource,
    matchingResources: (input) => intersection(input, names),
    matchesScope: matchesNoScope,
    usage: () => ({ usage, errors: [] }),
    usageStats: (options) => calculateUsageStats(options, list(options.namespace), evaluator),
  };
  return evaluator;
}
