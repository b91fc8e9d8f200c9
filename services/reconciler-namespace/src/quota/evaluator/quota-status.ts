/*
 * The computing half of the quota controller's syncResourceQuota, and addQuota's choice of queue
 * (pkg/controller/resourcequota/resource_quota_controller.go), on a quota as parsed JSON.
 */
import { equals, formatResourceList, mask, resourceNames, type ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { calculateUsage } from './calculate-usage.ts';
import type { ScopeRequirement, ScopeSelector } from './evaluator.ts';
import { items, present, record, shape, text } from './json.ts';
import { readList } from './quantities.ts';
import type { Registry } from './registry.ts';

/** ResourceQuotaJson is corev1.ResourceQuota as the API serves it, as far as the controller reads it. */
export type ResourceQuotaJson = {
  readonly metadata: { readonly namespace?: string; readonly name?: string };
  readonly spec?: {
    readonly hard?: Readonly<Record<string, string>>;
    readonly scopes?: readonly string[];
    readonly scopeSelector?: ScopeSelector;
  };
  readonly status?: {
    readonly hard?: Readonly<Record<string, string>>;
    readonly used?: Readonly<Record<string, string>>;
  };
};

/** ParsedQuota is a quota's lists and scopes, read totally (malformed quantities left out and reported). */
type ParsedQuota = {
  readonly specHard: ResourceList;
  readonly statusHard: ResourceList;
  readonly statusUsed: ResourceList;
  readonly errors: string[];
};

/** parseQuota reads spec.hard, status.hard and status.used. */
function parseQuota(quota: ResourceQuotaJson): ParsedQuota {
  const where = `resourcequota ${text(quota.metadata?.namespace)}/${text(quota.metadata?.name)}`;
  const errors: string[] = [];
  const specHard = readList(quota.spec?.hard, `${where} spec.hard`, errors);
  const statusHard = readList(quota.status?.hard, `${where} status.hard`, errors);
  const statusUsed = readList(quota.status?.used, `${where} status.used`, errors);
  return { specHard, statusHard, statusUsed, errors };
}

/** scopeSelectorOf reads spec.scopeSelector (undefined when absent), each field as a string or strings. */
function scopeSelectorOf(quota: ResourceQuotaJson): ScopeSelector | undefined {
  const selector = quota.spec?.scopeSelector;
  if (!present(selector)) return undefined;
  const matchExpressions = items(record(selector)['matchExpressions']).map((e): ScopeRequirement => {
    const r = shape<Record<string, unknown>>(e);
    const values = present(r['values']) ? { values: items(r['values']).map(text) } : {};
    return { scopeName: text(r['scopeName']), operator: text(r['operator']), ...values };
  });
  return { matchExpressions };
}

/**
 * quotaStatus is the computing half of syncResourceQuota (resource_quota_controller.go): the status upstream would
 * write, and whether it writes (dirty). Status maps hold upstream's canonical quantity strings (formatResourceList).
 * errors are what upstream would return/log (malformed quantities in the quota, an evaluator's error); the status is
 * still computed from the rest.
 */
export function quotaStatus(
  quota: ResourceQuotaJson,
  registry: Registry,
): { status: { hard: Record<string, string>; used: Record<string, string> }; dirty: boolean; errors: string[] } {
  const { specHard, statusHard, statusUsed, errors } = parseQuota(quota);
  const statusLimitsDirty = !equals(specHard, statusHard);
  const firstSync = !present(quota.status?.hard) || !present(quota.status?.used);
  const scopes = items(quota.spec?.scopes).map(text);
  const namespace = text(quota.metadata?.namespace);
  const calculated = calculateUsage(namespace, scopes, specHard, registry, scopeSelectorOf(quota));
  errors.push(...calculated.errors);
  const used = mask({ ...statusUsed, ...calculated.usage }, resourceNames(specHard));
  const dirty = statusLimitsDirty || firstSync || !equals(used, statusUsed);
  return { status: { hard: formatResourceList(specHard), used: formatResourceList(used) }, dirty, errors };
}

/**
 * missingUsage is addQuota's choice of the missingUsageQueue: spec.hard is not yet status.hard, or a status.hard
 * resource some evaluator measures has no status.used entry.
 */
export function missingUsage(quota: ResourceQuotaJson, registry: Registry): boolean {
  const { specHard, statusHard, statusUsed } = parseQuota(quota);
  if (!equals(specHard, statusHard)) return true;
  return resourceNames(statusHard).some(
    (name) => !Object.hasOwn(statusUsed, name) && registry.list().some((e) => e.matchingResources([name]).length > 0),
  );
}
