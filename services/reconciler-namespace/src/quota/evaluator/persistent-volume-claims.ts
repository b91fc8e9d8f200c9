/*
 * The claim evaluator: pkg/quota/v1/evaluator/core/persistent_volume_claims.go at v1.37.2's default gates:
 * VolumeAttributesClass (GA, locked on: the VolumeAttributesClass scope) and RecoverVolumeExpansionFailure (GA,
 * locked on: allocated storage above the request is charged).
 */
import { cmpQuantity, quantityOf, type Quantity } from '@kcm-bus/k8s/quantity.ts';
import type { ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { calculateUsageStats, objectCountQuotaResourceNameFor } from './evaluator.ts';
import type { Evaluator, ObjectUsage, ScopeMatch, ScopeRequirement } from './evaluator.ts';
import { objectName, record, shape, text, type PersistentVolumeClaimJson } from './json.ts';
import { readList, roundUpToUnits } from './quantities.ts';
import { classesMatchSelector } from './scope-selector.ts';

const PVC_OBJECT_COUNT = objectCountQuotaResourceNameFor('persistentvolumeclaims');
/** PVC_RESOURCES is pvcResources. */
const PVC_RESOURCES = ['persistentvolumeclaims', 'requests.storage'];
const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/**
 * pvcMatchingResources is pvcEvaluator.MatchingResources: count/persistentvolumeclaims, pvcResources, and
 * pvcResources by storage class (`<class>.storageclass.storage.k8s.io/<resource>`), in input order.
 */
export function pvcMatchingResources(input: readonly string[]): string[] {
  return input.filter(
    (name) =>
      name === PVC_OBJECT_COUNT ||
      PVC_RESOURCES.includes(name) ||
      PVC_RESOURCES.some((r) => name.endsWith(STORAGE_CLASS_SUFFIX + r)),
  );
}

/** storageClass is storagehelpers.GetPersistentVolumeClaimClass: the beta annotation, else spec.storageClassName. */
function storageClass(pvc: PersistentVolumeClaimJson): string {
  const annotations = record(pvc.metadata?.annotations);
  if (Object.hasOwn(annotations, BETA_STORAGE_CLASS_ANNOTATION))
    return text(annotations[BETA_STORAGE_CLASS_ANNOTATION]);
  return text(pvc.spec?.storageClassName);
}

/** volumeAttributesClassNames is getReferencedVolumeAttributesClassNames: spec's, status' current and target. */
export function volumeAttributesClassNames(pvc: PersistentVolumeClaimJson): string[] {
  const names = [
    text(pvc.spec?.volumeAttributesClassName),
    text(pvc.status?.currentVolumeAttributesClassName),
    text(
      shape<{ targetVolumeAttributesClassName?: unknown }>(pvc.status?.modifyVolumeStatus)
        .targetVolumeAttributesClassName,
    ),
  ];
  return [...new Set(names.filter((n) => n !== ''))];
}

/**
 * pvcMatchesScope is pvcMatchesScopeFunc: VolumeAttributesClass (Exists: any class referenced; else the selector on
 * {VolumeAttributesClass: class} of one of them); any other scope does not match.
 */
export function pvcMatchesScope(requirement: ScopeRequirement, item: unknown): ScopeMatch {
  if (requirement.scopeName !== 'VolumeAttributesClass') return { matches: false };
  const classes = volumeAttributesClassNames(shape<PersistentVolumeClaimJson>(item));
  if (requirement.operator === 'Exists') return { matches: classes.length !== 0 };
  return classesMatchSelector(requirement, classes);
}

/** storageUsage is getStorageUsage: the storage request rounded up to bytes, or the allocated storage when greater. */
function storageUsage(pvc: PersistentVolumeClaimJson, errors: string[]): Quantity | undefined {
  const where = `persistentvolumeclaim ${objectName(pvc.metadata)}`;
  const requests: ResourceList = readList(shape<{ requests?: unknown }>(pvc.spec?.resources).requests, where, errors);
  if (!Object.hasOwn(requests, 'storage')) return undefined;
  const requested = roundUpToUnits(requests['storage']!);
  const allocated: ResourceList = readList(pvc.status?.allocatedResources, `${where} status`, errors);
  if (!Object.hasOwn(allocated, 'storage') || cmpQuantity(allocated['storage']!, requested) <= 0) return requested;
  return roundUpToUnits(allocated['storage']!);
}

/**
 * pvcUsage is pvcEvaluator.Usage: persistentvolumeclaims and count/persistentvolumeclaims at one, requests.storage;
 * the claim and its storage again under its storage class' names.
 */
export function pvcUsage(item: unknown): ObjectUsage {
  const pvc = shape<PersistentVolumeClaimJson>(item);
  const errors: string[] = [];
  const usage = new Map<string, Quantity>([
    ['persistentvolumeclaims', quantityOf(1, 'DecimalSI')],
    [PVC_OBJECT_COUNT, quantityOf(1, 'DecimalSI')],
  ]);
  const className = storageClass(pvc);
  if (className !== '')
    usage.set(className + STORAGE_CLASS_SUFFIX + 'persistentvolumeclaims', quantityOf(1, 'DecimalSI'));
  const storage = storageUsage(pvc, errors);
  if (storage !== undefined) usage.set('requests.storage', storage);
  if (storage !== undefined && className !== '')
    usage.set(className + STORAGE_CLASS_SUFFIX + 'requests.storage', storage);
  return { usage: Object.fromEntries(usage), errors };
}

/** pvcEvaluator is NewPersistentVolumeClaimEvaluator: claims listed by namespace. */
export function pvcEvaluator(list: (namespace: string) => readonly unknown[] | undefined): Evaluator {
  const evaluator: Evaluator = {
    groupResource: 'persistentvolumeclaims',
    matchingResources: pvcMatchingResources,
    matchesScope: pvcMatchesScope,
    usage: pvcUsage,
    usageStats: (options) => calculateUsageStats(options, list(options.namespace), evaluator),
  };
  return evaluator;
}
