/*
 * Credentials that rotate. A service-account token (projected, re-written by the kubelet) and an exec plugin's token
 * expire, so an API client must not freeze the Authorization it computed at start. client-go re-reads a token file
 * (transport.NewCachedFileTokenSource) and refreshes an exec credential answered 401 (exec.roundTripper); here the
 * credentials are cached, computed again when their source changed or a request was answered 401, and that request
 * is sent once more with the fresh ones.
 */

/** RequestCredentials are the headers that carry a request's identity (Authorization, Impersonate-User). */
export type RequestCredentials = Readonly<Record<string, string>>;

/**
 * CredentialCache holds the credentials `load` computes until `version()` changes (a token file rewritten: its
 * inode, mtime and size) or a 401 invalidates them. A load that fails is not kept: the next request loads again.
 */
export class CredentialCache {
  readonly #load: () => Promise<RequestCredentials>;
  readonly #version: () => string;
  #current: Promise<RequestCredentials> | undefined;
  #seen = '';

  constructor(load: () => Promise<RequestCredentials>, version: () => string) {
    this.#load = load;
    this.#version = version;
  }

  /** current is the credentials to send now, loaded again when the source's version changed since the last load. */
  current(): Promise<RequestCredentials> {
    const version = this.#version();
    if (this.#current === undefined || version !== this.#seen) {
      const loading = this.#load();
      this.#current = loading;
      this.#seen = version;
      loading.catch(() => this.invalidate(loading));
    }
    return this.#current;
  }

  /** invalidate drops the credentials a request was refused with, unless a newer load replaced them already. */
  invalidate(used: Promise<RequestCredentials>): void {
    if (this.#current === used) this.#current = undefined;
  }
}

/**
 * sendWithCredentials sends a request with the cache's current credentials; when `unauthorized` says the answer
 * (or the error it failed with) is a 401, it invalidates those credentials and sends once more with fresh ones,
 * returning that second answer whatever it is.
 */
export async function sendWithCredentials<T>(
  cache: CredentialCache,
  send: (credentials: RequestCredentials) => Promise<T>,
  unauthorized: (answerOrError: unknown) => boolean,
): Promise<T> {
  const used = cache.current();
  const first = await send(await used).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (!unauthorized(first.ok ? first.value : first.error)) {
    if (first.ok) return first.value;
    throw first.error;
  }
  cache.invalidate(used);
  return send(await cache.current());
}
