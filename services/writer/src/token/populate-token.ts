import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { SA_NAME_KEY, SA_UID_KEY } from '@kcm-bus/k8s/core-v1.ts';
import type { LiveFacts } from '../live-checks.ts';
import { ownVerdict } from '../outcome.ts';
import { toRequest } from '../request.ts';
import { type Json, send, type SendDeps, type Sent, unsent } from '../send.ts';
import { mintLegacyToken, type TokenSigner } from './legacy-token.ts';

/** TokenKeys are what only the writer holds to fill token Secrets: the service-account key and the root CA bundle. */
export type TokenKeys = { readonly signer: TokenSigner; readonly rootCA: Buffer };

/** REFUSED_NO_KEY is the reason of a Refused PopulateToken when the writer was given no --service-account-private-key-file. */
export const REFUSED_NO_KEY = 'NoServiceAccountKey';

/** Needs are secretUpdateNeeded's answers: which of ca.crt, namespace and token a Secret lacks. */
type Needs = { readonly ca: boolean; readonly namespace: boolean; readonly token: boolean };

/** secretUpdateNeeded mirrors upstream's: ca.crt differs from the root CA (when there is one), namespace or token empty. */
function secretUpdateNeeded(data: Readonly<Record<string, string>>, rootCA: Buffer): Needs {
  const bytes = (key: string): Buffer => Buffer.from(data[key] ?? '', 'base64');
  return {
    ca: rootCA.length > 0 && !bytes('ca.crt').equals(rootCA),
    namespace: bytes('namespace').length === 0,
    token: bytes('token').length === 0,
  };
}

/**
 * populateToken mirrors generateTokenIfNeeded on the live Secret its live check read (`facts`): left alone when it
 * changed since the mutation was decided on (a Conflict: its next event decides, as upstream's "not up to date") or
 * needs nothing; otherwise its ca.crt, namespace and token set as needed (the token minted now, for the live account)
 * and the account's annotations, in one Update carrying the Secret's resourceVersion. The token goes to the API and
 * nowhere else: the result carries the answer's status, never the object.
 */
export async function populateToken(
  m: Mutation,
  facts: LiveFacts,
  keys: TokenKeys | undefined,
  deps: SendDeps,
): Promise<Sent> {
  if (keys === undefined)
    return unsent(ownVerdict('Refused', 0, REFUSED_NO_KEY, 'no --service-account-private-key-file'));
  const meta = (facts.object['metadata'] ?? {}) as Json;
  if (meta['resourceVersion'] !== m.preconditions.resourceVersion)
    return unsent(ownVerdict('Conflict', 409, 'Conflict', 'the Secret changed since'));
  const data = (facts.object['data'] ?? {}) as Record<string, string>;
  const needs = secretUpdateNeeded(data, keys.rootCA);
  if (!needs.ca && !needs.namespace && !needs.token)
    return unsent(ownVerdict('AlreadyDone', 0, null, 'the Secret needs nothing'));
  // The Update as every Update goes: the Secret's uid and resourceVersion as preconditions, the controller's manager.
  return send(toRequest({ ...m, verb: 'Update', body: filled(facts, data, needs, keys) }), m.controller, deps);
}

/** filled is the Secret's Update body: the needed values set, the account's name and uid annotated. */
function filled(facts: LiveFacts, data: Readonly<Record<string, string>>, needs: Needs, keys: TokenKeys): string {
  const meta = (facts.object['metadata'] ?? {}) as Json;
  const account = (facts.account?.['metadata'] ?? {}) as Json;
  const [namespace, name, uid] = [String(meta['namespace']), String(account['name']), String(account['uid'])];
  const b64 = (value: string | Buffer): string => Buffer.from(value).toString('base64');
  const token = (): string =>
    mintLegacyToken(keys.signer, {
      namespace,
      serviceAccountName: name,
      serviceAccountUID: uid,
      secretName: String(meta['name']),
    });
  const annotations = { ...((meta['annotations'] ?? {}) as Json), [SA_NAME_KEY]: name, [SA_UID_KEY]: uid };
  return JSON.stringify({
    ...facts.object,
    metadata: { ...meta, annotations },
    data: {
      ...data,
      ...(needs.ca ? { 'ca.crt': b64(keys.rootCA) } : {}),
      ...(needs.namespace ? { namespace: b64(namespace) } : {}),
      ...(needs.token ? { token: b64(token()) } : {}),
    },
  });
}
