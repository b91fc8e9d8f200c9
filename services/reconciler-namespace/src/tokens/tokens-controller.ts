import { SA_NAME_KEY, SECRET_TYPE_SA_TOKEN, type Secret, type ServiceAccount } from '@kcm-bus/k8s/core-v1.ts';
import type { ControllerSpec, Listers, ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import type { ValueDigest } from '@kcm-bus/runtime/signing/index.ts';
import { GoneTokens } from './gone-tokens.ts';
import { expectedDigests, syncSecret } from './sync-secret.ts';

/** TokensInputs are what the controller reads, co-partitioned by namespace; a key is a token Secret's `namespace/name`. */
export type TokensInputs = { readonly serviceAccounts: ServiceAccount; readonly secrets: Secret };

/** BY_ACCOUNT indexes token Secrets by the account they name, `namespace/name` (upstream lists them: listTokenSecrets). */
export const BY_ACCOUNT = 'serviceAccount';

/** byAccount is BY_ACCOUNT's index function. */
export function byAccount(secret: Secret): readonly string[] {
  const name = secret.metadata.annotations?.[SA_NAME_KEY];
  return secret.type === SECRET_TYPE_SA_TOKEN && name ? [`${secret.metadata.namespace ?? ''}/${name}`] : [];
}

/**
 * tokensControllerSpec is upstream's NewTokensController with its two queues made one, keyed by token Secret: a Secret
 * event enqueues the Secret (queueSecretSync), a live delete remembering its account (GoneTokens: upstream's queue key
 * carries it) for the sync to take the Secret out of the account's `secrets`; an account added, updated or deleted
 * enqueues the token Secrets naming it, and the deleted ones it may still list (upstream's account queue deletes them
 * when the account is gone; here their sync decides that, and an account that appears after its Secret has them
 * filled, which upstream's live lookup on a cache miss does). Retried at most 10 times (maxRetries).
 */
export function tokensControllerSpec(
  listers: Listers<TokensInputs>,
  digest: ValueDigest,
  rootCA: Buffer,
): ControllerSpec<TokensInputs> {
  const expected = expectedDigests(digest, rootCA);
  const gone = new GoneTokens();
  return {
    handlers: {
      secrets: (event: ObjectEvent<Secret>) => {
        if (event.type !== 'Deleted') gone.forget(event.key);
        else if (event.live) gone.deleted(event.key, event.object);
        return { enqueue: [event.key] };
      },
      serviceAccounts: (event: ObjectEvent<ServiceAccount>) => ({
        enqueue: [
          ...listers.secrets
            .byIndex(BY_ACCOUNT, event.key)
            .map((s) => `${s.metadata.namespace ?? ''}/${s.metadata.name}`),
          ...gone.keysOf(event.key),
        ],
      }),
    },
    reconcile: (key, input) => syncSecret(key, input, { ...listers, expected, gone }),
    maxRetries: 10,
  };
}
