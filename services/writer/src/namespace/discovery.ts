import { getRequest } from '../request.ts';
import { type Json, send, type SendDeps } from '../send.ts';

/*
 * The namespace deleter's discovery, as upstream reaches it: client-go's ServerPreferredNamespacedResources over
 * aggregated discovery (GET /api and /apis as APIGroupDiscoveryList), then deleteAllContent's
 * FilteredBy(SupportsAllVerbs{delete}) and GroupVersionResources. Our apiserver (v1.37.2) always serves aggregated
 * discovery, so an unaggregated answer (APIVersions, APIGroupList) is a discovery error here, where client-go would
 * fall back to fetching every group version's resource list.
 */

/** DISCOVERY_ACCEPT is client-go's acceptDiscoveryFormats (AcceptV2 + "," + AcceptV1, NoPeerDiscovery unset). */
export const DISCOVERY_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

/** DiscoveredResource is one schema.GroupVersionResource discovery yields, with its APIResource.Verbs. */
export type DiscoveredResource = {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly verbs: readonly string[];
};

/**
 * Discovered is what deleteAllContent gets from discovery: the deletable namespaced resources at their preferred
 * version, the discovery error (and its failed group versions, for an ErrGroupDiscoveryFailed), the group version
 * parsing error, and the requests sent.
 */
export type Discovered = {
  readonly resources: readonly DiscoveredResource[];
  readonly discoveryError: string | null;
  readonly discoveryFailedGroups: number | null;
  readonly groupVersionError: string | null;
  readonly attempts: number;
};

type Resource = { readonly resource: string; readonly namespaced: boolean; readonly verbs: readonly string[] };
type Version = { readonly version: string; readonly stale: boolean; readonly resources: readonly Resource[] };
type Group = { readonly name: string; readonly versions: readonly Version[] };
type ResourceList = { readonly groupVersion: string; readonly resources: Resource[] };
type Download = { readonly groups: readonly Group[]; readonly error: string | null; readonly attempts: number };

const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** gvString is schema.GroupVersion.String: the version alone for the core group. */
const gvString = (group: string, version: string): string => (group === '' ? version : `${group}/${version}`);

/**
 * discoverDeletableResources mirrors deleteAllContent's discovery: ServerPreferredNamespacedResources (through
 * DiscoveryClient.GroupsAndMaybeResources), FilteredBy(SupportsAllVerbs{delete}) and GroupVersionResources.
 */
export async function discoverDeletableResources(controller: string, deps: SendDeps): Promise<Discovered> {
  const api = await download('/api', controller, deps);
  if (api.error !== null) return failed(api.error, api.attempts);
  const apis = await download('/apis', controller, deps);
  const attempts = api.attempts + apis.attempts;
  if (apis.error !== null) return failed(apis.error, attempts);
  const groups = [...api.groups, ...apis.groups];
  const deletable = preferredResources(groups)
    .map((l) => ({ ...l, resources: l.resources.filter((r) => r.namespaced && r.verbs.includes('delete')) }))
    .filter((l) => l.resources.length > 0);
  const stale = staleGroupVersions(groups);
  const { resources, error } = groupVersionResources(deletable);
  return {
    resources,
    discoveryError: stale.length === 0 ? null : groupDiscoveryFailed(stale),
    discoveryFailedGroups: stale.length === 0 ? null : stale.length,
    groupVersionError: error,
    attempts,
  };
}

/** failed is ServerPreferredResources' answer when GroupsAndMaybeResources errs: the error and no resources. */
function failed(discoveryError: string, attempts: number): Discovered {
  return { resources: [], discoveryError, discoveryFailedGroups: null, groupVersionError: null, attempts };
}

/** download mirrors downloadLegacy (/api, whose 404 is tolerated) and downloadAPIs (/apis), aggregated only. */
async function download(path: '/api' | '/apis', controller: string, deps: SendDeps): Promise<Download> {
  const { verdict, attempts, body } = await send(getRequest(path, DISCOVERY_ACCEPT), controller, deps);
  if (path === '/api' && verdict.status === 404) return { groups: [], error: null, attempts };
  if (verdict.outcome !== 'Applied' || body === null) return { groups: [], error: verdict.message, attempts };
  return { ...parseAggregated(path, body), attempts };
}

function parseAggregated(
  path: string,
  body: string,
): { readonly groups: readonly Group[]; readonly error: string | null } {
  let value: Json;
  try {
    value = JSON.parse(body) as Json;
  } catch (e) {
    return { groups: [], error: (e as Error).message };
  }
  if (value['kind'] !== 'APIGroupDiscoveryList')
    return { groups: [], error: `${path} did not answer aggregated discovery (kind ${text(value['kind'])})` };
  return { groups: list(value['items']).map(groupOf), error: null };
}

/** groupOf reads an APIGroupDiscovery; resources without a responseKind are dropped (convertAPIResource's error). */
function groupOf(item: Json): Group {
  const versions = list(item['versions']).map((v) => ({
    version: text(v['version']),
    stale: v['freshness'] === 'Stale',
    resources: list(v['resources'])
      .filter((r) => hasKind(r['responseKind']))
      .map((r) => ({
        resource: text(r['resource']),
        namespaced: r['scope'] === 'Namespaced',
        verbs: list(r['verbs']).map(text),
      })),
  }));
  return { name: text((item['metadata'] as Json | undefined)?.['name']), versions };
}

function hasKind(kind: unknown): boolean {
  const k = (kind ?? {}) as Json;
  return text(k['group']) !== '' || text(k['version']) !== '' || text(k['kind']) !== '';
}

/**
 * preferredResources mirrors ServerPreferredResources over SplitGroupsAndResources: stale versions left out, a
 * group's preferred version its first fresh one; each group resource is taken from the first version serving it,
 * the preferred one overriding; subresources (names with "/") skipped. One list per fresh group version, in order.
 */
function preferredResources(groups: readonly Group[]): ResourceList[] {
  const lists: ResourceList[] = [];
  const chosen = new Map<string, { readonly list: ResourceList; readonly resource: Resource }>();
  for (const group of groups) {
    const fresh = group.versions.filter((v) => !v.stale);
    for (const version of fresh) {
      const list: ResourceList = { groupVersion: gvString(group.name, version.version), resources: [] };
      lists.push(list);
      for (const resource of version.resources) {
        const key = `${group.name}\u0000${resource.resource}`;
        if (resource.resource.includes('/')) continue;
        if (chosen.has(key) && version.version !== fresh[0]?.version) continue;
        chosen.set(key, { list, resource });
      }
    }
  }
  for (const { list, resource } of chosen.values()) list.resources.push(resource);
  return lists;
}

/** staleGroupVersions are SplitGroupsAndResources' failed group versions, as "gv: StaleGroupVersionError" texts. */
function staleGroupVersions(groups: readonly Group[]): string[] {
  const failures = new Map<string, string>();
  for (const group of groups)
    for (const v of group.versions.filter((v) => v.stale)) {
      const gv = gvString(group.name, v.version);
      failures.set(gv, `${gv}: stale GroupVersion discovery: ${gv}`);
    }
  return [...failures.values()];
}

/** groupDiscoveryFailed is ErrGroupDiscoveryFailed.Error(): the failures sorted, joined by ", ". */
function groupDiscoveryFailed(failures: readonly string[]): string {
  return `unable to retrieve the complete list of server APIs: ${[...failures].sort().join(', ')}`;
}

/** groupVersionResources mirrors discovery.GroupVersionResources: one unparsable group version and there is none. */
function groupVersionResources(lists: readonly ResourceList[]): {
  readonly resources: readonly DiscoveredResource[];
  readonly error: string | null;
} {
  const resources: DiscoveredResource[] = [];
  for (const l of lists) {
    const gv = parseGroupVersion(l.groupVersion);
    if (gv === null) return { resources: [], error: `unexpected GroupVersion string: ${l.groupVersion}` };
    resources.push(...l.resources.map((r) => ({ ...gv, resource: r.resource, verbs: r.verbs })));
  }
  return { resources, error: null };
}

/** parseGroupVersion mirrors schema.ParseGroupVersion; null where it errs (more than one "/"). */
function parseGroupVersion(gv: string): { readonly group: string; readonly version: string } | null {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length > 2) return null;
  return parts.length === 1 ? { group: '', version: gv } : { group: parts[0] ?? '', version: parts[1] ?? '' };
}
