import { apiGroup } from '@kcm-bus/runtime/mutation/index.ts';

/** RestLocation is what a REST path is built from: the target's apiVersion, resource and namespace. */
export type RestLocation = {
  readonly apiVersion: string;
  readonly resource: string;
  readonly namespace: string | null;
};

/**
 * resourcePath is the Kubernetes REST path of a collection (name '') or of one object, optionally of a subresource:
 * `/api/v1/namespaces/{ns}/{resource}/{name}/{sub}` for the core group, `/apis/{group}/{version}/…` otherwise,
 * without the namespaces segment for cluster-scoped resources (namespace null). Mirrors rest.Request.URL's layout.
 */
export function resourcePath(at: RestLocation, name = '', subresource: string | null = null): string {
  const root = apiGroup(at.apiVersion) === '' ? `/api/${at.apiVersion}` : `/apis/${at.apiVersion}`;
  const segments = [root];
  if (at.namespace !== null) segments.push('namespaces', encodeURIComponent(at.namespace));
  segments.push(at.resource);
  if (name !== '') segments.push(encodeURIComponent(name));
  if (name !== '' && subresource !== null) segments.push(subresource);
  return segments.join('/');
}
