import { SA_NAME_KEY, SA_UID_KEY, SECRET_TYPE_SA_TOKEN, type Secret } from '@kcm-bus/k8s/core-v1.ts';

/** GoneToken is a deleted token Secret's account, `namespace/name`, and its uid ('' when the Secret named none). */
export type GoneToken = { readonly account: string; readonly uid: string };

/** GONE_TOKENS_LIMIT bounds what a member remembers: the oldest is forgotten first (a key whose sync never came here). */
export const GONE_TOKENS_LIMIT = 10_000;

/**
 * GoneTokens are the token Secrets deleted whose account may still list them in `secrets`. Upstream's secret queue
 * key carries the account's name and uid (makeSecretQueueKey), so the sync of a Secret gone from the cache knows whose
 * reference to remove; here a key is the Secret's `namespace/name`, and the account is remembered from the delete's
 * last state until a sync finds nothing left to remove. A patch refused by its test (the list changed) is followed
 * by the account's change, which syncs the Secret again; a key whose partition moved to another member never syncs
 * here, and is forgotten past the limit.
 */
export class GoneTokens {
  readonly #gone = new Map<string, GoneToken>();
  readonly #limit: number;

  constructor(limit = GONE_TOKENS_LIMIT) {
    this.#limit = limit;
  }

  /** deleted remembers a token Secret that was deleted (a Secret of another type, or naming no account, is not one). */
  deleted(key: string, secret: Secret): void {
    const name = secret.metadata.annotations?.[SA_NAME_KEY] ?? '';
    if (secret.type !== SECRET_TYPE_SA_TOKEN || name === '') return;
    const uid = secret.metadata.annotations?.[SA_UID_KEY] ?? '';
    this.#gone.delete(key);
    this.#gone.set(key, { account: `${secret.metadata.namespace ?? ''}/${name}`, uid });
    for (const oldest of this.#gone.keys()) {
      if (this.#gone.size <= this.#limit) break;
      this.#gone.delete(oldest);
    }
  }

  /** of is the account of a deleted token Secret, if it is remembered. */
  of(key: string): GoneToken | undefined {
    return this.#gone.get(key);
  }

  /** keysOf are the deleted token Secrets of an account (`namespace/name`): its change may let their sync go on. */
  keysOf(account: string): readonly string[] {
    return [...this.#gone].filter(([, g]) => g.account === account).map(([key]) => key);
  }

  /** forget drops a Secret whose reference is gone (or whose account is). */
  forget(key: string): void {
    this.#gone.delete(key);
  }
}
