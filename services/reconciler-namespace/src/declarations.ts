import {
  NAMESPACE_CONTROLLER,
  RESOURCE_QUOTA_CONTROLLER,
  ROOT_CA_CERT_PUBLISHER,
  SERVICEACCOUNT_CONTROLLER,
  SERVICEACCOUNT_TOKEN_CONTROLLER,
} from '@kcm-bus/catalog/controllers.ts';
import { digestKeyPath, readDigestKey } from '@kcm-bus/runtime/signing/digest-key.fs.ts';
import { DATA_DIGESTS } from '@kcm-bus/schemas/withheld.ts';
import { BY_ACCOUNT, byAccount, tokensControllerSpec, type TokensInputs } from './tokens/tokens-controller.ts';
import { declared, type Declared } from '@kcm-bus/runtime/controller/index.ts';
import {
  serviceAccountsControllerSpec,
  type ServiceAccountsInputs,
} from './serviceaccounts/serviceaccounts-controller.ts';
import { rootCAPublisherSpec, type RootCAInputs } from './root-ca/root-ca-publisher.ts';
import { namespaceControllerSpec, type NamespaceInputs } from './namespace/namespace-controller.ts';
import { readRootCA } from '@kcm-bus/runtime/credentials/root-ca.fs.ts';
import { parseGoDuration } from '@kcm-bus/runtime/service/index.ts';
import { quotaInputs } from './quota/quota-inputs.ts';
import { quotaControllerSpec } from './quota/quota-controller.ts';
import type { QuotaInputs } from './quota/quota-objects.ts';

/** SA_FIELDS: the service account controller reads whether an account exists, nothing of its content. */
const SA_FIELDS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'metadata.resourceVersion'];

/** serviceAccounts is upstream's serviceaccount-controller: namespaces and their accounts, by namespace. */
const serviceAccounts = declared(
  SERVICEACCOUNT_CONTROLLER,
  'serviceaccount',
)<ServiceAccountsInputs>({
  inputs: { serviceAccounts: { fields: SA_FIELDS } },
  spec: (listers) => serviceAccountsControllerSpec(listers),
});

/** rootCAPublisher is upstream's root-ca-certificate-publisher-controller: namespaces and their root CA ConfigMap. */
const rootCAPublisher = declared(
  ROOT_CA_CERT_PUBLISHER,
  'root_ca_cert_publisher',
)<RootCAInputs>({
  inputs: {},
  flags: [
    {
      name: 'root-ca-file',
      type: 'string',
      default: '',
      help: "The CA bundle published as kube-root-ca.crt in every namespace (kube-controller-manager's flag; required here: the service has no kubeconfig to take it from).",
    },
  ],
  spec: (listers, { flags }) => rootCAPublisherSpec(listers, readRootCA(flags.string('root-ca-file'))),
});

/** TOKEN_SA_FIELDS: the token controller reads an account's identity and the Secrets it lists (to take one out). */
const TOKEN_SA_FIELDS = [...SA_FIELDS, 'secrets'];

/** SECRET_FIELDS: the token controller reads a Secret's identity, type, account annotations and value digests. */
const SECRET_FIELDS = [...SA_FIELDS, 'metadata.annotations', 'type', DATA_DIGESTS];

/** tokens is upstream's serviceaccount-token-controller: token Secrets and their accounts, by namespace. */
const tokens = declared(
  SERVICEACCOUNT_TOKEN_CONTROLLER,
  'serviceaccount_tokens_service',
)<TokensInputs>({
  inputs: {
    serviceAccounts: { fields: TOKEN_SA_FIELDS },
    secrets: { fields: SECRET_FIELDS, indexers: { [BY_ACCOUNT]: byAccount } },
  },
  flags: [
    {
      name: 'secret-digest-key-file',
      type: 'string',
      default: '',
      help: "The deployment's secret digest key, the watcher's: a token Secret's values are known here only by their digests under it. Default: secret-digest.key in --signing-dir.",
    },
  ],
  spec: (listers, { flags }) =>
    tokensControllerSpec(
      listers,
      readDigestKey(digestKeyPath(flags.string('secret-digest-key-file'), flags.string('signing-dir'))),
      Buffer.from(readRootCA(flags.string('root-ca-file'))),
    ),
});

/**
 * namespaces is upstream's namespace-controller: terminating namespaces, whole, their content deleted by the writer; a
 * failed pass retried after 5 ms doubling to 60 s (nsControllerRateLimiter); one still terminating synced again every
 * --namespace-sync-period.
 */
const namespaces = declared(
  NAMESPACE_CONTROLLER,
  'namespace',
)<NamespaceInputs>({
  inputs: {},
  retryBackoff: { baseDelayMs: 5, maxDelayMs: 60_000 },
  flags: [
    {
      name: 'namespace-sync-period',
      type: 'string',
      default: '5m0s',
      help: "The period for syncing namespace life-cycle updates (kube-controller-manager's flag): a namespace still being deleted is synced again this long, and the 5 s grace period, after its last sync. 0 turns it off.",
    },
  ],
  spec: (listers, { flags }) =>
    namespaceControllerSpec(listers, parseGoDuration(flags.string('namespace-sync-period'))),
});

/**
 * resourceQuotas is upstream's resourcequota-controller: quotas and what they count, by namespace, each input read for
 * the fields its evaluator reads (quota-inputs.ts).
 */
const resourceQuotas = declared(
  RESOURCE_QUOTA_CONTROLLER,
  'resourcequota_primary',
)<QuotaInputs>({
  inputs: quotaInputs(),
  flags: [
    {
      name: 'resource-quota-sync-period',
      type: 'string',
      default: '5m0s',
      help: "The period for syncing quota usage status in the system (kube-controller-manager's flag): every quota is recalculated this long after its last sync. 0 turns it off.",
    },
  ],
  spec: (listers, { flags }) =>
    quotaControllerSpec(listers, parseGoDuration(flags.string('resource-quota-sync-period'))),
});

/** DECLARATIONS are the controllers reconciler-namespace runs, each a catalog entry's part and its code. */
export const DECLARATIONS: readonly Declared[] = [serviceAccounts, rootCAPublisher, tokens, namespaces, resourceQuotas];
