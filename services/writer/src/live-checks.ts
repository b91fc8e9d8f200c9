import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';
import { SA_NAME_KEY, SA_UID_KEY, SECRET_TYPE_SA_TOKEN } from '@kcm-bus/k8s/core-v1.ts';
import type { LiveCheck, ObjectKind } from '@kcm-bus/runtime/catalog/index.ts';
import { LIVE_CHECK_FAILED, type Mutation, type Outcome } from '@kcm-bus/runtime/mutation/index.ts';
import { resourceOf } from './allowlist.ts';
import { keyName, objectRefusal } from './content-checks.ts';
import { type Final, ownVerdict } from './outcome.ts';
import { type Json, readObject, type SendDeps } from './send.ts';

/*
 * What a write's grant asks the writer to read from the API when it applies it (the catalog's LiveCheck): the record
 * may be forged, replayed or stale, so a bounded power (delete a token Secret, fill one with a token) is bounded by
 * what the API says now. This file names no controller; the catalog says which grant checks what.
 */

/** LIVE_CHECKS are the catalog's live checks by `controller verb resource`. */
const LIVE_CHECKS: ReadonlyMap<string, LiveCheck> = new Map(
  CONTROLLERS.flatMap((c) =>
    c.grants.flatMap((g) =>
      g.live === undefined ? [] : g.verbs.map((v) => [`${c.name} ${v} ${g.resource}`, g.live!]),
    ),
  ),
);

/** LiveFacts are what a live check read, for the write to build on: the target (a token Secret, a namespace), an account. */
export type LiveFacts = { readonly object: Json; readonly account: Json | null };

/** Live is a live check's answer: go on (with what it read), or stop with a verdict; attempts counts its reads. */
export type Live =
  | { readonly type: 'Go'; readonly facts: LiveFacts | undefined; readonly attempts: number }
  | { readonly type: 'Stop'; readonly verdict: Final; readonly attempts: number };

/** checkLive runs the live check of the mutation's grant, if it has one. */
export async function checkLive(m: Mutation, deps: SendDeps): Promise<Live> {
  const live = LIVE_CHECKS.get(`${m.controller} ${m.verb} ${resourceOf(m)}`);
  if (live === undefined) return { type: 'Go', facts: undefined, attempts: 0 };
  switch (live.check) {
    case 'tokenAccount':
      return tokenAccount(m, live.exists, deps);
    case 'controlledByKey':
      return controlledByKey(m, live.kind, deps);
    case 'namespaceTerminating':
      return namespaceTerminating(m, deps);
    case 'keySecretGone':
      return keySecretGone(m, deps);
  }
}

/**
 * keySecretGone: the Secret the reconcile key names, in the target's namespace, is gone, as the API says now (a
 * forged delete on the Secrets' topic takes no reference out of an account); one that exists, or a key of another
 * namespace, is Refused.
 */
async function keySecretGone(m: Mutation, deps: SendDeps): Promise<Live> {
  const [key, namespace, name] = [m.reconcileKey ?? '', m.target.namespace, keyName(m) ?? ''];
  if (namespace === null || !keyInTargetNamespace(m) || name === '')
    return stopWith('Refused', 0, LIVE_CHECK_FAILED, `its key ${key} names no Secret of the target's namespace`, 0);
  const read = await readObject({ apiVersion: 'v1', resource: 'secrets', namespace, name }, m.controller, deps);
  if ('failed' in read) return { type: 'Stop', verdict: read.failed, attempts: read.attempts };
  if (read.found === null) return { type: 'Go', facts: undefined, attempts: read.attempts };
  const message = `secrets/${name} in ${namespace} exists (the API says so now): the references to it stay`;
  return stopWith('Refused', 0, LIVE_CHECK_FAILED, message, read.attempts);
}

/**
 * namespaceTerminating: the target namespace, read now, is the one the mutation names (its uid) and has a deletion
 * timestamp. Gone already is AlreadyDone; a recreated one a Conflict; a live one Refused.
 */
async function namespaceTerminating(m: Mutation, deps: SendDeps): Promise<Live> {
  const read = await readObject({ ...m.target, namespace: null }, m.controller, deps);
  if ('failed' in read) return { type: 'Stop', verdict: read.failed, attempts: read.attempts };
  const what = `namespaces/${m.target.name}`;
  if (read.found === null) return stopWith('AlreadyDone', 404, 'NotFound', `${what} is gone`, read.attempts);
  const meta = (read.found['metadata'] ?? {}) as Json;
  if (meta['uid'] !== m.preconditions.uid)
    return stopWith('Conflict', 409, 'Conflict', `${what} is another object now`, read.attempts);
  if (typeof meta['deletionTimestamp'] !== 'string' || meta['deletionTimestamp'] === '') {
    const message = `${what} is not terminating (the API says so now): its content stays`;
    return stopWith('Refused', 0, LIVE_CHECK_FAILED, message, read.attempts);
  }
  return { type: 'Go', facts: { object: read.found, account: null }, attempts: read.attempts };
}

/** keyInTargetNamespace: the mutation's reconcile key (`namespace/name`) names an object of the target's namespace. */
const keyInTargetNamespace = (m: Mutation): boolean =>
  m.reconcileKey?.startsWith(`${m.target.namespace ?? ''}/`) ?? false;

/** stopWith is a live check's Stop with a verdict of its own (ownVerdict), after `attempts` reads. */
function stopWith(outcome: Outcome, status: number, reason: string, message: string, attempts: number): Live {
  return { type: 'Stop', verdict: ownVerdict(outcome, status, reason, message), attempts };
}

/**
 * controlledByKey: the target, read now, passes the content check `controllerRef` named by the key (one controller
 * reference, of `kind`, named as the reconcile key's object), and the key names an object of the target's namespace.
 * Gone already is AlreadyDone (a Delete's NotFound); otherwise Refused.
 */
async function controlledByKey(m: Mutation, kind: ObjectKind, deps: SendDeps): Promise<Live> {
  const read = await readObject(m.target, m.controller, deps);
  if ('failed' in read) return { type: 'Stop', verdict: read.failed, attempts: read.attempts };
  const what = `${m.target.resource}/${m.target.name} in ${m.target.namespace ?? ''}`;
  if (read.found === null) return stopWith('AlreadyDone', 404, 'NotFound', `${what} is gone`, read.attempts);
  const why =
    objectRefusal([{ check: 'controllerRef', kind, namedByKey: true }], m, read.found) ??
    (keyInTargetNamespace(m) ? undefined : `its key names another namespace's`);
  if (why === undefined) return { type: 'Go', facts: undefined, attempts: read.attempts };
  const message = `${what}: ${why} (key ${m.reconcileKey ?? 'none'}; the API says so now)`;
  return stopWith('Refused', 0, LIVE_CHECK_FAILED, message, read.attempts);
}

/**
 * tokenAccount: the target is a service-account token Secret, the one the mutation was decided on (its uid), naming
 * an account, and that account (by name, and by uid when the Secret names one, as getServiceAccount) exists, or with
 * `exists` false does not. A Secret already gone is AlreadyDone; a recreated one a Conflict.
 */
async function tokenAccount(m: Mutation, exists: boolean, deps: SendDeps): Promise<Live> {
  const read = await readObject(m.target, m.controller, deps);
  if ('failed' in read) return { type: 'Stop', verdict: read.failed, attempts: read.attempts };
  const stop = (outcome: Outcome, status: number, reason: string, message: string): Live =>
    stopWith(outcome, status, reason, message, read.attempts);
  const secret = read.found;
  const what = `secrets/${m.target.name} in ${m.target.namespace ?? ''}`;
  if (secret === null) return stop('AlreadyDone', 404, 'NotFound', `${what} is gone`);
  const meta = (secret['metadata'] ?? {}) as Json;
  if (meta['uid'] !== m.preconditions.uid) return stop('Conflict', 409, 'Conflict', `${what} is another object now`);
  const annotations = (meta['annotations'] ?? {}) as Record<string, string>;
  const name = annotations[SA_NAME_KEY] ?? '';
  if (secret['type'] !== SECRET_TYPE_SA_TOKEN || name === '')
    return stop('Refused', 0, LIVE_CHECK_FAILED, `${what} is not a service-account token naming an account`);
  const target = { apiVersion: 'v1', resource: 'serviceaccounts', namespace: m.target.namespace, name };
  const found = await readObject(target, m.controller, deps);
  const attempts = read.attempts + found.attempts;
  if ('failed' in found) return { type: 'Stop', verdict: found.failed, attempts };
  const uid = annotations[SA_UID_KEY] ?? '';
  const account =
    found.found !== null && (uid === '' || uid === (found.found['metadata'] as Json)['uid']) ? found.found : null;
  if ((account !== null) === exists) return { type: 'Go', facts: { object: secret, account }, attempts };
  const message = `${what}: its service account ${name} ${exists ? 'does not exist' : 'exists'} (the API says so now)`;
  return { ...stop('Refused', 0, LIVE_CHECK_FAILED, message), attempts };
}
