/* Test helpers for the evaluator tests: objects as the API serves them, a registry over them, lists as text. */
import { formatResourceList, type ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { quotaRegistry, type QuotaObjects, type Registry } from './registry.ts';

/** Quantities is a resource list as the API writes it. */
export type Quantities = Readonly<Record<string, string>>;

/** NOW is the tests' clock. */
export const NOW = new Date('2026-03-01T12:00:00Z');

/** resources is a container's (or pod's) resources field: requests and limits when given. */
export function resources(requests?: Quantities, limits?: Quantities): Record<string, Quantities> {
  return { ...(requests === undefined ? {} : { requests }), ...(limits === undefined ? {} : { limits }) };
}

/** container is a container of that name with those requests and limits. */
export function container(requests?: Quantities, limits?: Quantities, name = 'ctr'): Record<string, unknown> {
  return { name, resources: resources(requests, limits) };
}

/** makePod is pods_test.go's makePod: one container whose requests and limits are both resList. */
export function makePod(name: string, priorityClassName: string, resList: Quantities, phase: string): object {
  return {
    metadata: { name },
    spec: { priorityClassName, containers: [container(resList, resList)] },
    status: { phase },
  };
}

/** text is a resource list as upstream's status writes it. */
export function text(list: ResourceList): Record<string, string> {
  return formatResourceList(list);
}

/** objectsOf answers each known group resource's objects of a namespace (metadata.namespace, "" when absent). */
export function objectsOf(byResource: Readonly<Record<string, readonly object[]>>): QuotaObjects {
  return {
    list(groupResource, namespace) {
      if (!Object.hasOwn(byResource, groupResource)) return undefined;
      const namespaceOf = (o: object): unknown =>
        (o as { metadata?: { namespace?: unknown } }).metadata?.namespace ?? '';
      return byResource[groupResource]!.filter((o) => namespace === '' || namespaceOf(o) === namespace);
    },
  };
}

/** registryOf is the quota registry over those objects, at NOW. */
export function registryOf(
  byResource: Readonly<Record<string, readonly object[]>>,
  counted: readonly string[] = [],
): Registry {
  return quotaRegistry(objectsOf(byResource), counted, () => NOW);
}
