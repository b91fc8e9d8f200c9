import { createHmac } from 'node:crypto';

/*
 * Keyed digests of values that must not travel. A watched kind whose values are withheld (secrets) carries, for each
 * value, its HMAC-SHA256 under a key the watcher and the controllers that compare values hold, and nothing else of
 * it: a reader of the topic learns whether two values are equal when it holds the key, and nothing otherwise (a plain
 * hash of a short or guessable value would give it away to a dictionary).
 */

/** DIGEST_KEY_MIN_BYTES: a digest key shorter than this is refused (HMAC-SHA256's own block of strength). */
export const DIGEST_KEY_MIN_BYTES = 32;

/** ValueDigest gives the keyed digest of one value, base64url without padding. */
export type ValueDigest = (value: Buffer) => string;

/** valueDigest is the ValueDigest of one key; a key shorter than DIGEST_KEY_MIN_BYTES throws. */
export function valueDigest(key: Buffer): ValueDigest {
  if (key.length < DIGEST_KEY_MIN_BYTES)
    throw new Error(`a digest key has ${key.length} bytes; at least ${DIGEST_KEY_MIN_BYTES} are needed`);
  return (value) => createHmac('sha256', key).update(value).digest('base64url');
}
