import type { ConfigMap, Namespace } from '@kcm-bus/k8s/core-v1.ts';
import { createDraft, mutationLog, updateDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import { jsonEqual } from '@kcm-bus/k8s/json-equal.ts';
import type { Decision, Lister, ReconcileInput } from '@kcm-bus/runtime/controller/index.ts';
import { type MutationResult, NAMESPACE_TERMINATING } from '@kcm-bus/runtime/mutation/index.ts';
import { syncError } from '../write-failures.ts';
import { ROOT_CA_CERT_PUBLISHER } from '@kcm-bus/catalog/controllers.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';

/** CONFIG_MAPS is the kind the publisher writes. */
export const CONFIG_MAPS = watchedKind('configmaps');

/** ROOT_CA_CONFIG_MAP is upstream's RootCACertConfigMapName. */
export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';

/** DESCRIPTION_ANNOTATION and DESCRIPTION are upstream's DescriptionAnnotation and Description, verbatim. */
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the ' +
  'internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

/** RootCAView is what syncRootCA reads: the namespaces and root CA ConfigMaps (by namespace), and the CA bundle. */
export type RootCAView = {
  readonly namespaces: Lister<Namespace>;
  readonly configMaps: Lister<ConfigMap>;
  readonly rootCA: string;
};

/**
 * syncRootCA mirrors Publisher.syncNamespace: no `kube-root-ca.crt` in the namespace's store, it is created with the
 * CA bundle and the description; one whose data is not exactly `{ca.crt: <bundle>}`, or that lacks the description,
 * is updated to them (its other fields kept, guarded by its resourceVersion). No create where the store shows the
 * namespace gone or terminating: the API refuses it (NotFound, NamespaceTerminating), and a sync that reports that
 * refusal would otherwise make it again at the pipeline's pace. A create refused so is no error, as upstream's returns
 * nil; any other failed write makes the sync an error, retried with backoff.
 */
export function syncRootCA(key: string, input: ReconcileInput, view: RootCAView): Decision {
  const log = mutationLog(ROOT_CA_CERT_PUBLISHER.name, key, input.cause, input.now, input.attempt);
  const error = syncError(input.failures, goneNamespace);
  if (error !== undefined) return { mutations: [], error };
  const data = { 'ca.crt': view.rootCA };
  const current = view.configMaps.get(`${key}/${ROOT_CA_CONFIG_MAP}`);
  if (current === undefined) {
    const metadata = { name: ROOT_CA_CONFIG_MAP, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } };
    if (acceptsContent(view.namespaces.get(key))) log.push(createDraft(CONFIG_MAPS, key, { metadata, data }));
  } else if (!jsonEqual(current.data ?? {}, data) || !current.metadata.annotations?.[DESCRIPTION_ANNOTATION]) {
    const annotations = { ...current.metadata.annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION };
    const updated: ConfigMap = { ...current, metadata: { ...current.metadata, annotations }, data };
    log.push(updateDraft(CONFIG_MAPS, updated));
  }
  return { mutations: log.mutations() };
}

/** acceptsContent: the namespace, as the store holds it, exists and is not being deleted (its content can be created). */
function acceptsContent(ns: Namespace | undefined): boolean {
  return ns !== undefined && ns.metadata.deletionTimestamp === undefined && ns.status?.phase !== 'Terminating';
}

/** goneNamespace: a create refused because the namespace is gone or terminating, which upstream ignores. */
function goneNamespace(r: MutationResult): boolean {
  return r.verb === 'Create' && (r.reason === 'NotFound' || r.reason === NAMESPACE_TERMINATING);
}
