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
  /** kubectl's short names of the kind (`po`, `rs`), which the tools take as well. */
  readonly shortNames: readonly string[];
  /**
   * onlyName, when set, is the one name the kind is watched by (its list and watch carry the field selector
   * `metadata.name=<onlyName>`, and the watcher's role names it): its topics carry only those objects (of config maps,
   * the root CA's: no user's configuration travels on the bus).
   */
  readonly onlyName?: string;
  /**
   * onlyType, when set, is the one `type` the kind is watched by (the field selector `type=<onlyType>`): of secrets,
   * the service-account tokens' alone travel.
   */
  readonly onlyType?: string;
  /**
   * withheld, when set, says the kind's values never travel (secrets): the watcher replaces `data` by a keyed digest
   * of each value and keeps only the annotations `keptAnnotations` names (schemas/withheld.ts), and a reader refuses a
   * record that carries a value.
   */
  readonly withheld?: { readonly keptAnnotations: readonly string[] };
  /**
   * metadataOnly, when set, says the kind's topics carry each object's identity alone, never its content, labels or
   * annotations (schemas/metadata-only.ts): what a quota's count/<resource> needs of kinds no controller reads whole.
   */
  readonly metadataOnly?: true;
  /** resource is the API resource listed and watched, where it differs from plural (a metadata-only kind's). */
  readonly resource?: string;
};

const core = (kind: string, plural: string, namespaced: boolean, shortNames: readonly string[] = []): WatchedKind => ({
  kind,
  plural,
  shortNames,
  apiVersion: 'v1',
  namespaced,
  definition: `io.k8s.api.core.v1.${kind}`,
  openApiPath: 'api/v1',
  openApiFile: 'api__v1_openapi.json',
});

/** grouped is a namespaced kind of an API group (`apps`, `discovery.k8s.io`) at version v1, defined in io.k8s.api.<pkg>.v1. */
const grouped = (
  group: string,
  pkg: string,
  kind: string,
  plural: string,
  shortNames: readonly string[] = [],
): WatchedKind => ({
  kind,
  plural,
  shortNames,
  apiVersion: `${group}/v1`,
  namespaced: true,
  definition: `io.k8s.api.${pkg}.v1.${kind}`,
  openApiPath: `apis/${group}/v1`,
  openApiFile: `apis__${group}__v1_openapi.json`,
});

/** groupResource is a kind's group resource as quota names it: `pods` in the core group, `jobs.batch` in others. */
export function groupResource(kind: Pick<WatchedKind, 'apiVersion' | 'plural' | 'resource'>): string {
  const resource = apiResourceOf(kind);
  const slash = kind.apiVersion.indexOf('/');
  return slash < 0 ? resource : `${resource}.${kind.apiVersion.slice(0, slash)}`;
}

/** apiResourceOf is the API resource a kind is listed and watched by. */
export function apiResourceOf(kind: Pick<WatchedKind, 'plural' | 'resource'>): string {
  return kind.resource ?? kind.plural;
}

/**
 * identities is the metadata-only kind of a kind (`metadata.<group resource>`: topics `kcm.watch.metadata.configmaps`,
 * `kcm.watch.metadata.jobs.batch`): every object of it, by identity alone.
 */
const identities = ({ onlyName: _n, onlyType: _t, withheld: _w, ...kind }: WatchedKind): WatchedKind => ({
  ...kind,
  plural: `metadata.${groupResource(kind)}`,
  resource: kind.plural,
  shortNames: [],
  metadataOnly: true,
});

/** WATCHED_KINDS are the kinds with a watch topic (DESIGN "Topics and records"); the generator serves any other. */
export const WATCHED_KINDS: readonly WatchedKind[] = [
  core('Pod', 'pods', true, ['po']),
  core('ReplicationController', 'replicationcontrollers', true, ['rc']),
  core('Service', 'services', true, ['svc']),
  core('Endpoints', 'endpoints', true, ['ep']),
  core('Node', 'nodes', false, ['no']),
  core('Namespace', 'namespaces', false, ['ns']),
  core('ServiceAccount', 'serviceaccounts', true, ['sa']),
  { ...core('ConfigMap', 'configmaps', true, ['cm']), onlyName: 'kube-root-ca.crt' },
  {
    ...core('Secret', 'secrets', true),
    onlyType: 'kubernetes.io/service-account-token',
    withheld: { keptAnnotations: ['kubernetes.io/service-account.name', 'kubernetes.io/service-account.uid'] },
  },
  grouped('coordination.k8s.io', 'coordination', 'Lease', 'leases'),
  grouped('apps', 'apps', 'ReplicaSet', 'replicasets', ['rs']),
  grouped('apps', 'apps', 'Deployment', 'deployments', ['deploy']),
  grouped('discovery.k8s.io', 'discovery', 'EndpointSlice', 'endpointslices'),
  core('ResourceQuota', 'resourcequotas', true, ['quota']),
  core('PersistentVolumeClaim', 'persistentvolumeclaims', true, ['pvc']),
  grouped('resource.k8s.io', 'resource', 'ResourceClaim', 'resourceclaims'),
  identities(core('ConfigMap', 'configmaps', true)),
  identities(core('Secret', 'secrets', true)),
  identities(grouped('batch', 'batch', 'Job', 'jobs')),
  identities(grouped('batch', 'batch', 'CronJob', 'cronjobs')),
  identities(grouped('apps', 'apps', 'StatefulSet', 'statefulsets')),
  identities(grouped('apps', 'apps', 'DaemonSet', 'daemonsets')),
];

/** fieldSelectorOf is the field selector a kind is listed and watched with (onlyName, onlyType), or undefined. */
export function fieldSelectorOf(kind: Pick<WatchedKind, 'onlyName' | 'onlyType'>): string | undefined {
  const terms = [
    ...(kind.onlyName === undefined ? [] : [`metadata.name=${kind.onlyName}`]),
    ...(kind.onlyType === undefined ? [] : [`type=${kind.onlyType}`]),
  ];
  return terms.length === 0 ? undefined : terms.join(',');
}

/** watchedKind looks a watched kind up by kind or plural. */
export function watchedKind(name: string): WatchedKind {
  const found = WATCHED_KINDS.find((k) => k.kind === name || k.plural === name);
  if (!found)
    throw new Error(`${name} is not a watched kind; watched: ${WATCHED_KINDS.map((k) => k.plural).join(', ')}`);
  return found;
}

/**
 * watchSchemaFile is where a watched kind's value schema is committed, relative to schemas/ (the generator writes it,
 * watch-schemas.fs.ts reads it).
 */
export function watchSchemaFile(kind: Pick<WatchedKind, 'plural'>): string {
  return `watch/${kind.plural}.avsc`;
}

/**
 * watchTopic is a watched kind's history topic: every record of the audit window, in order (replay, trace, audit,
 * `tail`).
 */
export function watchTopic(kind: Pick<WatchedKind, 'plural'>): string {
  return `kcm.watch.${kind.plural}`;
}

/**
 * stateTopic is a watched kind's state topic: the same records in the same transactions, compacted eagerly to about
 * one per live key, which is what a restarting or newly assigned member restores from (its cost follows the live objects,
 * not the audit window).
 */
export function stateTopic(kind: Pick<WatchedKind, 'plural'>): string {
  return `kcm.state.${kind.plural}`;
}

/** kindOfTopic is the watched kind of a history or state topic. */
export function kindOfTopic(topic: string): WatchedKind {
  const plural = /^kcm\.(?:watch|state)\.(.+)$/.exec(topic)?.[1];
  if (plural === undefined) throw new Error(`${topic} is not a watch or state topic`);
  return watchedKind(plural);
}

/** objectKey is the record key of an object: `namespace/name`, or `name` for cluster-scoped kinds. */
export function objectKey(meta: {
  readonly namespace?: string | null | undefined;
  readonly name?: string | undefined;
}): string {
  return meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : (meta.name ?? '');
}
