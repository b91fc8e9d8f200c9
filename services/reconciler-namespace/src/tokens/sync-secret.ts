import {
  SA_NAME_KEY,
  SA_UID_KEY,
  SECRET_TYPE_SA_TOKEN,
  type Secret,
  type ServiceAccount,
} from '@kcm-bus/k8s/core-v1.ts';
import {
  deleteDraft,
  mutationLog,
  type MutationDraft,
  patchDraft,
  populateTokenDraft,
} from '@kcm-bus/k8s/mutation-drafts.ts';
import { SERVICEACCOUNT_TOKEN_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import type { Decision, Lister, ReconcileInput } from '@kcm-bus/runtime/controller/index.ts';
import { LIVE_CHECK_FAILED } from '@kcm-bus/runtime/mutation/index.ts';
import type { ValueDigest } from '@kcm-bus/runtime/signing/index.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { syncError } from '../write-failures.ts';
import type { GoneTokens } from './gone-tokens.ts';

/** SECRETS and SERVICE_ACCOUNTS are the kinds the controller writes. */
const SECRETS = watchedKind('secrets');
const SERVICE_ACCOUNTS = watchedKind('serviceaccounts');

/**
 * ExpectedDigests are the digests syncSecret compares a Secret's with, computed once: of an empty value, and of the root
 * CA bundle the writer puts in ca.crt (undefined: no bundle, so ca.crt is never wrong).
 */
export type ExpectedDigests = { readonly empty: string; readonly rootCA: string | undefined };

/** expectedDigests are the ExpectedDigests under the deployment's digest key. */
export function expectedDigests(digest: ValueDigest, rootCA: Buffer): ExpectedDigests {
  return { empty: digest(Buffer.alloc(0)), rootCA: rootCA.length > 0 ? digest(rootCA) : undefined };
}

/**
 * TokensView is what syncSecret reads: the stores of token Secrets and accounts, the digests to compare with, and the
 * accounts of the token Secrets deleted.
 */
export type TokensView = {
  readonly secrets: Lister<Secret>;
  readonly serviceAccounts: Lister<ServiceAccount>;
  readonly expected: ExpectedDigests;
  readonly gone: GoneTokens;
};

/**
 * syncSecret mirrors TokensController.syncSecret for a Secret in the store: one that is no token, or names no account,
 * is left alone (parseSecretQueueKey drops its key); its account gone (by name, and by uid when it names one:
 * getServiceAccount) → the Secret deleted with its uid as precondition (deleteToken); else its ca.crt, namespace or
 * token missing (secretUpdateNeeded, from the digests) → a PopulateToken for the writer to fill, minting the token
 * (generateTokenIfNeeded). A token Secret deleted is taken out of its account's `secrets` when the account (by name,
 * and by uid when the Secret named one) lists it (removeSecretReference). A failed write of the last sync is an error,
 * retried; a Conflict (the Secret changed, or the uid precondition failed) and a live check's refusal (the account's
 * existence differs from the store's: its own event comes) are not, as upstream retries neither.
 */
export function syncSecret(key: string, input: ReconcileInput, view: TokensView): Decision {
  const error = syncError(input.failures, (r) => r.outcome === 'Conflict' || r.reason === LIVE_CHECK_FAILED);
  if (error !== undefined) return { mutations: [], error };
  const secret = view.secrets.get(key);
  const account = secret?.metadata.annotations?.[SA_NAME_KEY] ?? '';
  if (secret !== undefined && (secret.type !== SECRET_TYPE_SA_TOKEN || account === '')) return { mutations: [] };
  const draft = secret === undefined ? unreferenced(key, view) : decide(secret, account, view);
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
  if (!updateNeeded(secret.dataDigests ?? {}, view.expected)) return undefined;
  return populateTokenDraft(SECRETS, meta);
}

/**
 * unreferenced is removeSecretReference for a deleted token Secret: a json patch that takes every reference to it out
 * of its account's `secrets`, each checked by name first, highest index first: a list changed meanwhile fails the
 * test (a Conflict), and the account's change, once read, syncs the Secret again (GoneTokens.keysOf). Nothing when
 * the account is gone, is another of that name, or lists no such reference; the Secret is then forgotten.
 */
function unreferenced(key: string, view: TokensView): MutationDraft | undefined {
  const gone = view.gone.of(key);
  const sa = gone === undefined ? undefined : view.serviceAccounts.get(gone.account);
  const name = key.slice(key.indexOf('/') + 1);
  const at = (sa?.secrets ?? []).flatMap((ref, i) => (ref.name === name ? [i] : [])).reverse();
  const another = gone !== undefined && gone.uid !== '' && gone.uid !== sa?.metadata.uid;
  if (sa === undefined || another || at.length === 0) {
    view.gone.forget(key);
    return undefined;
  }
  const ops = at.flatMap((i) => [
    { op: 'test' as const, path: `/secrets/${i}/name`, value: name },
    { op: 'remove' as const, path: `/secrets/${i}` },
  ]);
  return patchDraft(SERVICE_ACCOUNTS, sa.metadata, ops);
}

/** updateNeeded is secretUpdateNeeded on digests: ca.crt not the root CA's, namespace or token empty or absent. */
function updateNeeded(digests: Readonly<Record<string, string>>, expected: ExpectedDigests): boolean {
  const missing = (k: string): boolean => digests[k] === undefined || digests[k] === expected.empty;
  const wrongCA = expected.rootCA !== undefined && digests['ca.crt'] !== expected.rootCA;
  return wrongCA || missing('namespace') || missing('token');
}
