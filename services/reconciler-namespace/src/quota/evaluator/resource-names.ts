/*
 * Resource-name predicates the pod evaluator uses: pkg/apis/core/v1/helper (IsNativeResource, IsExtendedResourceName),
 * pkg/scheduler/util (IsDRAExtendedResourceName) and pods.go's isExtendedResourceNameForQuota, with
 * validation.IsQualifiedName (IsLabelKey) under them.
 */

/** REQUESTS_PREFIX is corev1.DefaultResourceRequestsPrefix. */
export const REQUESTS_PREFIX = 'requests.';
/** HUGE_PAGES_PREFIX is corev1.ResourceHugePagesPrefix. */
export const HUGE_PAGES_PREFIX = 'hugepages-';
/** DEVICE_CLASS_PREFIX is resourceapi.ResourceDeviceClassPrefix (implicit DRA extended resources). */
const DEVICE_CLASS_PREFIX = 'deviceclass.resource.kubernetes.io/';

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** isQualifiedName is validation.IsQualifiedName: [prefix/]name, name ≤ 63, prefix a DNS-1123 subdomain ≤ 253. */
export function isQualifiedName(value: string): boolean {
  const parts = value.split('/');
  if (parts.length > 2) return false;
  const name = parts.at(-1) ?? '';
  const prefix = parts.length === 2 ? (parts[0] ?? '') : undefined;
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)))
    return false;
  return name.length > 0 && name.length <= 63 && NAME.test(name);
}

/** isNativeResource is helper.IsNativeResource: unprefixed, or in a *kubernetes.io/ namespace. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** isExtendedResourceName is helper.IsExtendedResourceName: not native, not a quota name, valid as `requests.<name>`. */
function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(REQUESTS_PREFIX)) return false;
  return isQualifiedName(REQUESTS_PREFIX + name);
}

/** isDRAExtendedResourceName is schedutil.IsDRAExtendedResourceName: an extended resource, or a device class's. */
export function isDRAExtendedResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith(DEVICE_CLASS_PREFIX);
}

/** isExtendedResourceNameForQuota is pods.go's isExtendedResourceNameForQuota: `requests.` of a non-native resource. */
export function isExtendedResourceNameForQuota(name: string): boolean {
  const nonNative = !isNativeResource(name);
  const implicitExtendedResource = name.startsWith(REQUESTS_PREFIX + DEVICE_CLASS_PREFIX);
  return (nonNative || implicitExtendedResource) && name.startsWith(REQUESTS_PREFIX);
}
