/** WatchedKind is one kind kcm-bus turns into a `kcm.watch.<plural>` topic, and where its API and schema are. */
export type WatchedKind = {
  readonly kind: string;
  readonly plural: string;
  /** apiVersion as in objects: `v1` for the core group, `group/version` otherwise. */
  readonly apiVersion: string;
  readonly namespaced: boolean;
  /** The OpenAPI definition of the kind. */
  readonly definition: string;
  /** The apiserver's OpenAPI v3 path of the group version (`/openapi/v3/<path>`). */
  readonly openApiPath: string;
  /** The same document's file name in upstream's `api/openapi-spec/v3`. */
  readonly openApiFile: string;
};

const core = (kind: string, plural: string, namespaced: boolean): WatchedKind => ({
  kind, plural, apiVersion: 'v1', namespaced, definition: `io.k8s.api.core.v1.${kind}`,
  openApiPath: 'api/v1', openApiFile: 'api__v1_openapi.json',
});

/** WATCHED_KINDS are the kinds with a watch topic (DESIGN "Topics and records"); the generator serves any other. */
export const WATCHED_KINDS: readonly WatchedKind[] = [
  core('Pod', 'pods', true),
  core('ReplicationController', 'replicationcontrollers', true),
  core('Service', 'services', true),
  core('Endpoints', 'endpoints', true),
  core('Node', 'nodes', false),
  {
    kind: 'Lease', plural: 'leases', apiVersion: 'coordination.k8s.io/v1', namespaced: true,
    definition: 'io.k8s.api.coordination.v1.Lease',
    openApiPath: 'apis/coordination.k8s.io/v1', openApiFile: 'apis__coordination.k8s.io__v1_openapi.json',
  },
];

/** watchedKind looks a watched kind up by kind or plural. */
export function watchedKind(name: string): WatchedKind {
  const found = WATCHED_KINDS.find((k) => k.kind === name || k.plural === name);
  if (!found) throw new Error(`${name} is not a watched kind; watched: ${WATCHED_KINDS.map((k) => k.plural).join(', ')}`);
  return found;
}

/** watchTopic is the topic of a watched kind. */
export function watchTopic(kind: Pick<WatchedKind, 'plural'>): string {
  return `kcm.watch.${kind.plural}`;
}

/** objectKey is the record key of an object: `namespace/name`, or `name` for cluster-scoped kinds. */
export function objectKey(meta: { readonly namespace?: string | null | undefined; readonly name?: string | undefined }): string {
  return meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : (meta.name ?? '');
}
