/*
 * The pod evaluator: pkg/quota/v1/evaluator/core/pods.go (Usage, MatchingResources, the scopes, QuotaV1Pod) at
 * v1.37.2's default gates (see pod-resources.ts and qos.ts).
 */
import { parseQuantity } from '@kcm-bus/k8s/quantity-parse.ts';
import { quantityOf, type Quantity } from '@kcm-bus/k8s/quantity.ts';
import { add, containsPrefix, intersection, type ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { calculateUsageStats, objectCountQuotaResourceNameFor, type Evaluator } from './evaluator.ts';
import type { ObjectUsage, ScopeMatch, ScopeRequirement } from './evaluator.ts';
import { items, present, shape, text, type AffinityJson, type PodAffinityJson } from './json.ts';
import type { PodAffinityTermJson, PodJson } from './json.ts';
import { podLimits, podRequests } from './pod-resources.ts';
import { isBestEffort } from './qos.ts';
import { HUGE_PAGES_PREFIX, isDRAExtendedResourceName, isExtendedResourceNameForQuota } from './resource-names.ts';
import { REQUESTS_PREFIX } from './resource-names.ts';
import { classesMatchSelector } from './scope-selector.ts';

const POD_OBJECT_COUNT = objectCountQuotaResourceNameFor('pods');
const COMPUTE = ['cpu', 'memory', 'ephemeral-storage'];
/** POD_RESOURCES is podResources. */
const POD_RESOURCES = [
  POD_OBJECT_COUNT,
  ...COMPUTE,
  ...COMPUTE.map((r) => REQUESTS_PREFIX + r),
  ...COMPUTE.map((r) => `limits.${r}`),
  'pods',
];
/** POD_RESOURCE_PREFIXES is podResourcePrefixes. */
const POD_RESOURCE_PREFIXES = [HUGE_PAGES_PREFIX, REQUESTS_PREFIX + HUGE_PAGES_PREFIX];
const ONE = quantityOf(1, 'DecimalSI');
const ONE_POD = parseQuantity('1');

/** isTerminating is IsTerminating: the pod has a non-negative activeDeadlineSeconds. */
export function isTerminating(pod: PodJson): boolean {
  const deadline = pod.spec?.activeDeadlineSeconds;
  return typeof deadline === 'number' && deadline >= 0;
}

/**
 * quotaV1Pod is QuotaV1Pod: whether the pod is charged for compute: not Failed or Succeeded, and not past its
 * deletion timestamp plus its deletion grace period.
 */
export function quotaV1Pod(pod: PodJson, now: Date): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (!present(pod.metadata?.deletionTimestamp) || typeof grace !== 'number') return true;
  const deletion = Date.parse(text(pod.metadata?.deletionTimestamp));
  return !(now.getTime() > deletion + grace * 1000);
}

/** podMatchingResources is podEvaluator.MatchingResources: podResources, hugepages and extended resources' requests. */
export function podMatchingResources(input: readonly string[]): string[] {
  const result = intersection(input, POD_RESOURCES);
  for (const name of input) {
    if (containsPrefix(POD_RESOURCE_PREFIXES, name)) result.push(name);
    if (isExtendedResourceNameForQuota(name)) result.push(name);
  }
  return result;
}

/** crossNamespaceTerm is crossNamespacePodAffinityTerm: the term names namespaces or has a namespace selector. */
function crossNamespaceTerm(term: PodAffinityTermJson): boolean {
  return items(term.namespaces).length !== 0 || present(term.namespaceSelector);
}

/** usesCrossNamespacePodAffinity is usesCrossNamespacePodAffinity: a required or preferred (anti-)affinity term is. */
function usesCrossNamespacePodAffinity(pod: PodJson): boolean {
  const affinity = shape<AffinityJson>(pod.spec?.affinity);
  return [affinity.podAffinity, affinity.podAntiAffinity].some((a) => {
    const terms = shape<PodAffinityJson>(a);
    const required = items(terms.requiredDuringSchedulingIgnoredDuringExecution).map((t) =>
      shape<PodAffinityTermJson>(t),
    );
    const preferred = items(terms.preferredDuringSchedulingIgnoredDuringExecution).map((w) =>
      shape<PodAffinityTermJson>(shape<{ podAffinityTerm?: unknown }>(w).podAffinityTerm),
    );
    return [...required, ...preferred].some(crossNamespaceTerm);
  });
}

/**
 * podMatchesScope is podMatchesScopeFunc: Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass (Exists:
 * any class; else the selector on {PriorityClass: class}), CrossNamespacePodAffinity; any other scope does not match.
 */
export function podMatchesScope(requirement: ScopeRequirement, item: unknown): ScopeMatch {
  const pod = shape<PodJson>(item);
  const priorityClass = text(pod.spec?.priorityClassName);
  switch (requirement.scopeName) {
    case 'Terminating':
      return { matches: isTerminating(pod) };
    case 'NotTerminating':
      return { matches: !isTerminating(pod) };
    case 'BestEffort':
      return { matches: isBestEffort(pod) };
    case 'NotBestEffort':
      return { matches: !isBestEffort(pod) };
    case 'PriorityClass':
      if (requirement.operator === 'Exists') return { matches: priorityClass !== '' };
      return classesMatchSelector(requirement, priorityClass === '' ? [] : [priorityClass]);
    case 'CrossNamespacePodAffinity':
      return { matches: usesCrossNamespacePodAffinity(pod) };
    default:
      return { matches: false };
  }
}

/**
 * podComputeUsageHelper is podComputeUsageHelper: pods, the cpu, memory and ephemeral-storage requests (bare and
 * requests.*) and limits, hugepages requests (bare and requests.*), extended resources' requests (requests.* only).
 */
function podComputeUsageHelper(requests: ResourceList, limits: ResourceList): ResourceList {
  const result = new Map<string, Quantity>([['pods', ONE_POD]]);
  for (const name of COMPUTE) {
    const request = Object.hasOwn(requests, name) ? requests[name] : undefined;
    const limit = Object.hasOwn(limits, name) ? limits[name] : undefined;
    if (request !== undefined) result.set(name, request).set(REQUESTS_PREFIX + name, request);
    if (limit !== undefined) result.set(`limits.${name}`, limit);
  }
  for (const [name, request] of Object.entries(requests)) {
    if (name.startsWith(HUGE_PAGES_PREFIX)) result.set(name, request).set(REQUESTS_PREFIX + name, request);
    if (isDRAExtendedResourceName(name)) result.set(REQUESTS_PREFIX + name, request);
  }
  return Object.fromEntries(result);
}

/**
 * podUsage is PodUsageFunc: count/pods always; the compute usage (podComputeUsageHelper of PodRequests and PodLimits)
 * while the pod is charged (quotaV1Pod).
 */
export function podUsage(item: unknown, now: Date): ObjectUsage {
  const pod = shape<PodJson>(item);
  if (!quotaV1Pod(pod, now)) return { usage: { [POD_OBJECT_COUNT]: ONE }, errors: [] };
  return chargedUsage(pod);
}

/**
 * CHARGED is each pod's charge, computed once per object: a store replaces an object that changes, so a pod is parsed
 * again only when it changed, not on every recalculation of every quota of its namespace.
 */
const CHARGED = new WeakMap<object, ObjectUsage>();

/** chargedUsage is count/pods and podComputeUsageHelper of PodRequests and PodLimits. */
function chargedUsage(pod: PodJson): ObjectUsage {
  const known = CHARGED.get(pod);
  if (known !== undefined) return known;
  const errors: string[] = [];
  const compute = podComputeUsageHelper(podRequests(pod, errors), podLimits(pod, errors));
  const charged = { usage: add({ [POD_OBJECT_COUNT]: ONE }, compute), errors: [...new Set(errors)] };
  CHARGED.set(pod, charged);
  return charged;
}

/** podEvaluator is NewPodEvaluator: pods listed by namespace, charged at the clock's time. */
export function podEvaluator(list: (namespace: string) => readonly unknown[] | undefined, now: () => Date): Evaluator {
  const evaluator: Evaluator = {
    groupResource: 'pods',
    matchingResources: podMatchingResources,
    matchesScope: podMatchesScope,
    usage: (item) => podUsage(item, now()),
    usageStats: (options) => calculateUsageStats(options, list(options.namespace), evaluator),
  };
  return evaluator;
}
