import type { NamespaceContentReport, ResourceCount } from '@kcm-bus/runtime/mutation/index.ts';
import type { Final } from '../outcome.ts';
import { getRequest, type KubeRequest } from '../request.ts';
import { resourcePath, type RestLocation } from '../rest-path.ts';
import { type Json, send, type SendDeps, type Sent } from '../send.ts';
import { type Discovered, type DiscoveredResource, discoverDeletableResources } from './discovery.ts';

/** FINALIZER_ESTIMATE_SECONDS is upstream's finalizerEstimateSeconds: the wait granted while finalizers hold objects. */
const FINALIZER_ESTIMATE_SECONDS = 15;
/** METADATA_LIST_ACCEPT is the metadata client's List Accept header, without protobuf. */
const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
/** BACKGROUND is metav1.DeleteOptions{PropagationPolicy: Background} as the metadata client encodes it. */
const BACKGROUND = JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
const DELETE_HEADERS = { Accept: 'application/json', 'Content-Type': 'application/json' };

/** ContentDeps are what a pass needs: sending (budget, retries) and the clock the grace period estimate reads. */
export type ContentDeps = SendDeps & { readonly clock: () => Date };

/** Pass is one pass's inputs and upstream's running totals: estimate, allGVRDeletionMetadata, errors, requests. */
type Pass = {
  readonly namespace: string;
  readonly deletedAt: Date;
  readonly controller: string;
  readonly deps: ContentDeps;
  attempts: number;
  estimate: number;
  readonly remaining: ResourceCount[];
  readonly finalizers: Map<string, number>;
  readonly errors: string[];
};
type Listed = { readonly items: readonly Json[] | null; readonly error: string | null };
/** GvrResult is upstream's gvrDeletionMetadata and the error deleteAllContentForGroupVersionResource returns. */
type GvrResult = {
  readonly estimate: number;
  readonly remaining: number;
  readonly finalizers: ReadonlyMap<string, number>;
  readonly error: string | null;
};
type Estimate = { readonly estimate: number; readonly error: string | null };
type Collection = { readonly supported: boolean; readonly error: string | null };

const unsupported = (v: Final): boolean => v.status === 404 || v.status === 405;
const succeeded = (v: Final): boolean => v.outcome === 'Applied' || v.outcome === 'AlreadyDone';
const isPods = (r: DiscoveredResource): boolean => r.group === '' && r.version === 'v1' && r.resource === 'pods';
/** gvrString is schema.GroupVersionResource.String, as upstream's %v prints it. */
const gvrString = (r: DiscoveredResource): string => `${r.group}/${r.version}, Resource=${r.resource}`;
const NONE: ReadonlyMap<string, number> = new Map();
/** only is a resource's result when nothing remains (or the pass could not tell): an estimate and maybe an error. */
function only(estimate: number, error: string | null): GvrResult {
  return { estimate, remaining: 0, finalizers: NONE, error };
}

/**
 * deleteNamespaceContent is one pass of namespacedResourcesDeleter.deleteAllContent (pkg/controller/namespace/deletion)
 * with the metadata client's requests: discovery, pods (stopping there while pods remain), then every other deletable
 * resource. Upstream's opCache (list, deletecollection) is the verbs of this pass's discovery (upstream's: start-up's).
 * deleteContentErrors are what upstream hands ProcessDeleteContentErr, so a pods error unwrapped: its "failed to delete
 * pods for namespace" wrapping is only in the aggregate upstream returns (a log line). attempts sums requests sent.
 */
export async function deleteNamespaceContent(
  namespace: string,
  deletedAt: Date,
  controller: string,
  deps: ContentDeps,
): Promise<{ readonly report: NamespaceContentReport; readonly attempts: number }> {
  const discovered = await discoverDeletableResources(controller, deps);
  const totals = { estimate: 0, remaining: [], finalizers: new Map<string, number>(), errors: [] };
  const pass: Pass = { namespace, deletedAt, controller, deps, attempts: discovered.attempts, ...totals };
  const pods = discovered.resources.find(isPods);
  if (pods !== undefined) {
    addUp(pass, pods, await deleteAllContentForGroupVersionResource(pass, pods));
    if (pass.remaining.length > 0) return { report: reportOf(discovered, pass), attempts: pass.attempts };
  }
  for (const r of discovered.resources.filter((r) => !isPods(r)))
    addUp(pass, r, await deleteAllContentForGroupVersionResource(pass, r));
  return { report: reportOf(discovered, pass), attempts: pass.attempts };
}

/** addUp is deleteAllContent's bookkeeping of one resource's result: error, highest estimate, what remains. */
function addUp(pass: Pass, r: DiscoveredResource, result: GvrResult): void {
  if (result.error !== null) pass.errors.push(result.error);
  pass.estimate = Math.max(pass.estimate, result.estimate);
  if (result.remaining <= 0) return;
  pass.remaining.push({ resource: r.resource, group: r.group, count: result.remaining });
  for (const [finalizer, count] of result.finalizers)
    if (count > 0) pass.finalizers.set(finalizer, (pass.finalizers.get(finalizer) ?? 0) + count);
}

function reportOf(discovered: Discovered, pass: Pass): NamespaceContentReport {
  return {
    estimateSeconds: pass.estimate,
    remaining: pass.remaining,
    finalizers: [...pass.finalizers].map(([finalizer, count]) => ({ finalizer, count })),
    discoveryError: discovered.discoveryError,
    discoveryFailedGroups: discovered.discoveryFailedGroups,
    groupVersionError: discovered.groupVersionError,
    deleteContentErrors: pass.errors,
  };
}

/**
 * deleteAllContentForGroupVersionResource mirrors upstream's: estimate, delete the collection (else each item), then
 * list what remains: nothing; or, with an estimate, wait for it; or, held by finalizers, wait 15 s; otherwise the
 * "unexpected items still remain" error.
 */
async function deleteAllContentForGroupVersionResource(pass: Pass, r: DiscoveredResource): Promise<GvrResult> {
  const { estimate, error } = await estimateGracefulTermination(pass, r);
  if (error !== null) return only(0, error);
  const collection = await deleteCollection(pass, r);
  if (collection.error !== null) return only(estimate, collection.error);
  const eachError = collection.supported ? null : await deleteEachItem(pass, r);
  if (eachError !== null) return only(estimate, eachError);
  const listed = await listCollection(pass, r);
  if (listed.error !== null || listed.items === null) return only(estimate, listed.error);
  const remaining = listed.items.length;
  if (remaining === 0) return only(0, null);
  const finalizers = countFinalizers(listed.items);
  if (estimate !== 0) return { estimate, remaining, finalizers, error: null };
  if (finalizers.size > 0) return { estimate: FINALIZER_ESTIMATE_SECONDS, remaining, finalizers, error: null };
  const unexpected = `unexpected items still remain in namespace: ${pass.namespace} for gvr: ${gvrString(r)}`;
  return { estimate, remaining, finalizers: new Map(), error: unexpected };
}

function countFinalizers(items: readonly Json[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items)
    for (const finalizer of strings((item['metadata'] as Json | undefined)?.['finalizers']))
      counts.set(finalizer, (counts.get(finalizer) ?? 0) + 1);
  return counts;
}

/** estimateGracefulTermination mirrors upstream's: pods' estimate, 0 once that long has passed since deletion. */
async function estimateGracefulTermination(pass: Pass, r: DiscoveredResource): Promise<Estimate> {
  let estimate = 0;
  if (r.group === '' && r.resource === 'pods') {
    const pods = await call(pass, getRequest(collectionPath(pass, { ...r, version: 'v1' }), 'application/json'));
    const listed = itemsOf(pods);
    if (listed.error !== null) return { estimate: 0, error: listed.error };
    estimate = estimateGracefulTerminationForPods(listed.items ?? []);
  }
  const elapsedMs = pass.deps.clock().getTime() - pass.deletedAt.getTime();
  return { estimate: elapsedMs >= estimate * 1000 ? 0 : estimate, error: null };
}

/** estimateGracefulTerminationForPods mirrors upstream's: the longest grace period of the pods not yet terminal. */
function estimateGracefulTerminationForPods(pods: readonly Json[]): number {
  let estimate = 0;
  for (const pod of pods) {
    const phase = (pod['status'] as Json | undefined)?.['phase'];
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const grace = (pod['spec'] as Json | undefined)?.['terminationGracePeriodSeconds'];
    if (typeof grace === 'number' && grace > estimate) estimate = grace;
  }
  return estimate;
}

/** deleteCollection mirrors upstream's: unsupported when discovery lacks the verb or the API answers 405 or 404. */
async function deleteCollection(pass: Pass, r: DiscoveredResource): Promise<Collection> {
  if (!r.verbs.includes('deletecollection')) return { supported: false, error: null };
  const { verdict } = await call(pass, backgroundDelete(collectionPath(pass, r)));
  if (unsupported(verdict)) return { supported: false, error: null };
  return { supported: true, error: succeeded(verdict) ? null : verdict.message };
}

/** listCollection mirrors upstream's (a metadata-only list); items null when unsupported, as deleteCollection. */
async function listCollection(pass: Pass, r: DiscoveredResource): Promise<Listed> {
  if (!r.verbs.includes('list')) return { items: null, error: null };
  const answer = await call(pass, getRequest(collectionPath(pass, r), METADATA_LIST_ACCEPT));
  return unsupported(answer.verdict) ? { items: null, error: null } : itemsOf(answer);
}

/** deleteEachItem mirrors upstream's: list, then delete each item in the background, a 404 or 405 being no error. */
async function deleteEachItem(pass: Pass, r: DiscoveredResource): Promise<string | null> {
  const listed = await listCollection(pass, r);
  if (listed.error !== null || listed.items === null) return listed.error;
  for (const item of listed.items) {
    const name = text((item['metadata'] as Json | undefined)?.['name']);
    if (name === '') return 'name is required';
    const { verdict } = await call(pass, backgroundDelete(resourcePath(locationOf(pass, r), name), name));
    if (!unsupported(verdict) && !succeeded(verdict)) return verdict.message;
  }
  return null;
}

/** backgroundDelete describes the metadata client's Delete (an object) or DeleteCollection (name ''), in the background. */
function backgroundDelete(path: string, name = ''): KubeRequest {
  return {
    method: 'DELETE',
    path,
    query: {},
    headers: DELETE_HEADERS,
    body: BACKGROUND,
    name,
    preconditionTests: false,
  };
}

/** call sends one request through the budget and retries, counting its attempts in the pass. */
async function call(pass: Pass, request: KubeRequest): Promise<Sent> {
  const sent = await send(request, pass.controller, pass.deps);
  pass.attempts += sent.attempts;
  return sent;
}

/** itemsOf reads a list answer's items; a failed answer or an unreadable body is the error. */
function itemsOf({ verdict, body }: Sent): Listed {
  if (verdict.outcome !== 'Applied' || body === null) return { items: null, error: verdict.message };
  try {
    const list = JSON.parse(body) as Json;
    return { items: Array.isArray(list['items']) ? (list['items'] as Json[]) : [], error: null };
  } catch (e) {
    return { items: null, error: (e as Error).message };
  }
}

function locationOf(pass: Pass, r: DiscoveredResource): RestLocation {
  const apiVersion = r.group === '' ? r.version : `${r.group}/${r.version}`;
  return { apiVersion, resource: r.resource, namespace: pass.namespace };
}

const collectionPath = (pass: Pass, r: DiscoveredResource): string => resourcePath(locationOf(pass, r));
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(text) : []);
