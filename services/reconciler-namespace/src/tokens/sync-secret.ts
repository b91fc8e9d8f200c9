import type { Secret, ServiceAccount } from '@kcm-bus/k8s/core-v1.ts';
import { deleteDraft, mutationLog, type MutationDraft } from '@kcm-bus/k8s/mutation-drafts.ts';
import { SERVICEACCOUNT_TOKEN_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import type { Decision, Lister, ReconcileInput } from '@kcm-bus/runtime/controller/index.ts';
import { LIVE_CHECK_FAILED } from '@kcm-bus/runtime/mutation/index.ts';
import type { ValueDigest } from '@kcm-bus/runtime/signing/index.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { syncError } from '../write-failures.ts';

/** SECRETS is the kind the controller writes. */
const SECRETS = watchedKind('secrets');

/** SA_TOKEN_TYPE, SA_NAME_KEY, SA_UID_KEY are v1.SecretTypeServiceAccountToken and the annotations naming its account. */
export const SA_TOKEN_TYPE = 'kubernetes.io/service-account-token';
export const SA_NAME_KEY = 'kubernetes.io/service-account.name';
export const SA_UID_KEY = 'kubernetes.io/service-account.uid';

/**
 * TokensView is what syncSecret reads: the stores of token Secrets and accounts, and how to tell a value's digest:
 * the deployment's digest key and the root CA bundle the writer puts in ca.crt (empty: none).
 */
export type TokensView = {
  readonly secrets: Lister<Secret>;
  readonly serviceAccounts: Lister<ServiceAccount>;
  readonly digest: ValueDigest;
  readonly rootCA: Buffer;
};

/**
 * syncSecret mirrors TokensController.syncSecret for a Secret in the store: one that is no token, or names no account,
 * is left alone (parseSecretQueueKey drops its key); its account gone (by name, and by uid when it names one:
 * getServiceAccount) → the Secret deleted with its uid as precondition (deleteToken); else its ca.crt, namespace or
 * token missing (secretUpdateNeeded, from the digests) → a PopulateToken for the writer to fill, minting the token
 * (generateTokenIfNeeded). A Secret gone from the store needs nothing here: upstream then removes it from its
 * account's `secrets`, which kcm-bus does not do (the field is informational since tokens are no longer listed there).
 * A failed write of the last sync is an error, retried; a Conflict (the Secret changed, or the uid precondition
 * failed) and a live check's refusal (the account's existence differs from the store's: its own event comes) are not,
 * as upstream retries neither.
 */
export function syncSecret(key: string, input: ReconcileInput, view: TokensView): Decision {
  const error = syncError(input.failures, (r) => r.outcome === 'Conflict' || r.reason === LIVE_CHECK_FAILED);
  if (error !== undefined) return { mutations: [], error };
  const secret = view.secrets.get(key);
  const account = secret?.metadata.annotations?.[SA_NAME_KEY] ?? '';
  if (secret === undefined || secret.type !== SA_TOKEN_TYPE || account === '') return { mutations: [] };
  const draft = decide(secret, account, view);
  if (draft === undefined) return { mutations: [] };
  const log = mutationLog(SERVICEACCOUNT_TOKEN_CONTROLLER.name, key, input.cause, input.now, input.attempt);
  log.push(draft);
  return { mutations: log.mutations() };
}

function decide(secret: Secret, account: string, view: TokensView): MutationDraft | undefined {
  const meta = secret.metadata;
  const sa = view.serviceAccounts.get(`${meta.namespace ?? ''}/${account}`);
  const uid = meta.annotations?.[SA_UID_KEY] ?? '';
  if (sa === undefined || (uid !== '' && uid !== sa.metadata.uid)) return deleteDraft(SECRETS, meta);
  if (!updateNeeded(secret.dataDigests ?? {}, view)) return undefined;
  return populateTokenDraft(meta);
}

/** updateNeeded is secretUpdateNeeded on digests: ca.crt not the root CA's, namespace or token empty or absent. */
export function updateNeeded(
  digests: Readonly<Record<string, string>>,
  view: Pick<TokensView, 'digest' | 'rootCA'>,
): boolean {
  const empty = view.digest(Buffer.alloc(0));
  const missing = (k: string): boolean => digests[k] === undefined || digests[k] === empty;
  const wrongCA = view.rootCA.length > 0 && digests['ca.crt'] !== view.digest(view.rootCA);
  return wrongCA || missing('namespace') || missing('token');
}

/** populateTokenDraft names the Secret and the version it was decided on; the writer fills it. */
function populateTokenDraft(meta: Secret['metadata']): MutationDraft {
  return {
    verb: 'PopulateToken',
    target: {
      apiVersion: SECRETS.apiVersion,
      kind: SECRETS.kind,
      namespace: meta.namespace ?? null,
      name: meta.name,
      resource: SECRETS.plural,
      subresource: null,
    },
    preconditions: { uid: meta.uid ?? null, resourceVersion: meta.resourceVersion ?? null },
    body: null,
    patch: null,
    patchType: null,
    event: null,
  };
}
