/*
 * The ResourceClaim evaluator: pkg/quota/v1/evaluator/core/resource_claims.go at v1.37.2's default gates:
 * DynamicResourceAllocation (GA, locked on: the evaluator is registered) and DRAExtendedResource (GA, locked on).
 *
 * Left out, for want of its inputs: DRAExtendedResource's part. MatchingResources' two extended branches
 * (`requests.deviceclass.resource.kubernetes.io/<class>` when the class names an extended resource, `requests.<name>`
 * when a class backs that extended resource or is its implicit name) consult the DeviceClass cache
 * (extendedresourcecache); without DeviceClasses upstream's own nil cache matches neither, and so this port never
 * does. Usage's addExtendedResourceQuota (those names charged with the class' device count, less what the owning pod
 * already requests: getVerifiedPodUsage) only adds names that are then never matched, which quota.CalculateUsage masks
 * out, so Usage leaves them out. Porting it would need a DeviceClass input (spec.extendedResourceName by class, the
 * newer class winning a shared name), and for claims annotated resource.kubernetes.io/extended-resource-claim the
 * owning pod (pods lister, PodUsageFunc) and the claim→pod owner index (makeResourceClaimPodOwnerGetter).
 */
import { quantityOf } from '@kcm-bus/k8s/quantity.ts';
import { add, type ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { calculateUsageStats, matchesNoScope, objectCountQuotaResourceNameFor } from './evaluator.ts';
import type { Evaluator, ObjectUsage } from './evaluator.ts';
import { items, objectName, shape, text, type ObjectMetaJson } from './json.ts';

/** CLAIMS is resourceclaims' group resource. */
const CLAIMS = 'resourceclaims.resource.k8s.io';
/** CLAIM_OBJECT_COUNT is ClaimObjectCountName. */
const CLAIM_OBJECT_COUNT = objectCountQuotaResourceNameFor(CLAIMS);
/** CLAIMS_PER_CLASS is corev1.ResourceClaimsPerClass. */
const CLAIMS_PER_CLASS = '.deviceclass.resource.k8s.io/devices';
/** ALLOCATION_RESULTS_MAX_SIZE is resourceapi.AllocationResultsMaxSize: what allocation mode All may take. */
const ALLOCATION_RESULTS_MAX_SIZE = 32;
const ONE = quantityOf(1, 'DecimalSI');

/** DeviceSelectionJson is what resource.k8s.io/v1 ExactDeviceRequest and DeviceSubRequest share for quota. */
type DeviceSelectionJson = {
  readonly name?: string;
  readonly deviceClassName?: string;
  readonly allocationMode?: string;
  readonly count?: number;
};

/** DeviceRequestJson is the part of resource.k8s.io/v1 DeviceRequest the evaluator reads. */
type DeviceRequestJson = {
  readonly name?: string;
  readonly exactly?: DeviceSelectionJson | null;
  readonly firstAvailable?: readonly DeviceSelectionJson[] | null;
};

/** ResourceClaimJson is the part of resource.k8s.io/v1 ResourceClaim the evaluator reads. */
export type ResourceClaimJson = {
  readonly metadata?: ObjectMetaJson;
  readonly spec?: { readonly devices?: { readonly requests?: readonly DeviceRequestJson[] | null } | null };
};

/** resourceByDeviceClass is V1ResourceByDeviceClass: `<class>.deviceclass.resource.k8s.io/devices`. */
export function resourceByDeviceClass(className: string): string {
  return className + CLAIMS_PER_CLASS;
}

/**
 * claimMatchingResources is claimEvaluator.MatchingResources without DeviceClasses: the claims' object count and the
 * names ending in `.deviceclass.resource.k8s.io/devices`, in input order.
 */
export function claimMatchingResources(input: readonly string[]): string[] {
  return input.filter((name) => name === CLAIM_OBJECT_COUNT || name.endsWith(CLAIMS_PER_CLASS));
}

/**
 * numDevices is Usage's device count of a request or subrequest: its count for ExactCount (absent or null: Go's
 * zero; not an int64 this side can hold exactly: zero, reported), the worst case for All, none for an unknown mode.
 */
function numDevices(selection: DeviceSelectionJson, where: string, errors: string[]): number {
  if (selection.allocationMode === 'All') return ALLOCATION_RESULTS_MAX_SIZE;
  if (selection.allocationMode !== 'ExactCount') return 0;
  const count: unknown = selection.count;
  if (count === undefined || count === null || Number.isSafeInteger(count))
    return typeof count === 'number' ? count : 0;
  errors.push(`${where}: malformed count: ${JSON.stringify(count)}`);
  return 0;
}

/**
 * worstCaseUsage is Usage's firstAvailable case: per device class, the most devices any subrequest of that class may
 * take (a class whose subrequests take none is left out, as upstream's strict comparison with zero does).
 */
function worstCaseUsage(request: DeviceRequestJson, where: string, errors: string[]): ResourceList {
  const most = new Map<string, number>();
  for (const item of items(request.firstAvailable)) {
    const subrequest = shape<DeviceSelectionJson>(item);
    const name = resourceByDeviceClass(text(subrequest.deviceClassName));
    const at = `${where} request ${JSON.stringify(`${text(request.name)}/${text(subrequest.name)}`)}`;
    const devices = numDevices(subrequest, at, errors);
    if (devices > (most.get(name) ?? 0)) most.set(name, devices);
  }
  return Object.fromEntries([...most].map(([name, devices]) => [name, quantityOf(devices, 'DecimalSI')]));
}

/** requestUsage is what Usage charges a request: firstAvailable's worst case, else exactly's devices, else nothing. */
function requestUsage(request: DeviceRequestJson, where: string, errors: string[]): ResourceList {
  if (items(request.firstAvailable).length > 0) return worstCaseUsage(request, where, errors);
  const exactly: unknown = request.exactly;
  if (typeof exactly !== 'object' || exactly === null || Array.isArray(exactly)) return {};
  const selection = shape<DeviceSelectionJson>(exactly);
  const devices = numDevices(selection, `${where} request ${JSON.stringify(text(request.name))}`, errors);
  return { [resourceByDeviceClass(text(selection.deviceClassName))]: quantityOf(devices, 'DecimalSI') };
}

/**
 * claimUsage is claimEvaluator.Usage without DRAExtendedResource's names (see the header): count/resourceclaims at
 * one, and per device class (`<class>.deviceclass.resource.k8s.io/devices`) the devices its requests may take.
 */
export function claimUsage(item: unknown): ObjectUsage {
  const claim = shape<ResourceClaimJson>(item);
  const where = `resourceclaim ${objectName(claim.metadata)}`;
  const errors: string[] = [];
  let usage: ResourceList = { [CLAIM_OBJECT_COUNT]: ONE };
  for (const request of items(shape<{ requests?: unknown }>(claim.spec?.devices).requests))
    usage = add(usage, requestUsage(shape<DeviceRequestJson>(request), where, errors));
  return { usage, errors };
}

/** claimEvaluator is NewResourceClaimEvaluator without DeviceClasses: claims listed by namespace; no scope matches. */
export function claimEvaluator(list: (namespace: string) => readonly unknown[] | undefined): Evaluator {
  const evaluator: Evaluator = {
    groupResource: CLAIMS,
    matchingResources: claimMatchingResources,
    matchesScope: matchesNoScope,
    usage: claimUsage,
    usageStats: (options) => calculateUsageStats(options, list(options.namespace), evaluator),
  };
  return evaluator;
}
