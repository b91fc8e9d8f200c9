import type { Redis } from 'ioredis';
import type { ExpectationChange, ExpectationsView } from '../reconcile/reconciler.ts';
import { type ControlleeExpectations, type ExpectationsStore, expectationsView, recordFor } from './expectations.ts';

/** NOW_MS is the Redis server's clock in ms as an exact string: every replica stamps and expires by one clock. */
const NOW_MS = `local t = redis.call('TIME')
local now = t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000))`;

/** SET replaces a record: KEYS = record hash, delete-key set; ARGV = adds, ttl ms, pod keys… (del = distinct keys). */
const SET = `if redis.replicate_commands then redis.replicate_commands() end
${NOW_MS}
redis.call('DEL', KEYS[1], KEYS[2])
local del = 0
for i = 3, #ARGV do del = del + redis.call('SADD', KEYS[2], ARGV[i]) end
redis.call('HSET', KEYS[1], 'add', ARGV[1], 'del', del, 'timestamp', now)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if del > 0 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return now`;

/** LOWER lowers an existing record: ARGV = adds, pod keys… (each tracked key lowers del once and is untracked). */
const LOWER = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local gone = 0
for i = 2, #ARGV do gone = gone + redis.call('SREM', KEYS[2], ARGV[i]) end
if tonumber(ARGV[1]) ~= 0 then redis.call('HINCRBY', KEYS[1], 'add', -tonumber(ARGV[1])) end
if gone > 0 then redis.call('HINCRBY', KEYS[1], 'del', -gone) end
return 1`;

/** VIEW reads the server's now, the record and its delete keys in one step: { now [, add, del, timestamp, keys] }. */
const VIEW = `${NOW_MS}
local h = redis.call('HMGET', KEYS[1], 'add', 'del', 'timestamp')
if not h[1] then return { now } end
return { now, h[1], h[2], h[3], redis.call('SMEMBERS', KEYS[2]) }`;

type Script = (hash: string, deletes: string, ...args: (string | number)[]) => Promise<unknown>;

/** Scripts are the commands defineCommand adds to the client (ioredis cannot type them), run by EVALSHA. */
type Scripts = { readonly kcmExpSet: Script; readonly kcmExpLower: Script; readonly kcmExpView: Script };

/** RedisExpectationsOptions: whose expectations (a key namespace per controller), their TTL, and the key prefix. */
export type RedisExpectationsOptions = {
  /** controller names the queue the keys belong to (e.g. "replicationmanager"), so controllers never collide. */
  readonly controller: string;
  /** ttlMs is --expectations-ttl-seconds in ms: a record expires and is dropped by Redis this long after it is set. */
  readonly ttlMs: number;
  /** prefix of every Redis key; default "kcm-bus:exp". */
  readonly prefix?: string;
};

/**
 * RedisExpectations is the ExpectationsStore of the services: one hash {add, del, timestamp} per controller key and
 * a set of the pod keys expected to go, `<prefix>:{<controller>:<key>}` and `…:deletes` (one hash tag: one Redis
 * Cluster slot). Every change is one Lua script, so concurrent workers and replicas never lose an update, and a
 * restarted or newly assigned replica reads the same counts. Timestamps and expiry use the Redis server's clock;
 * Redis drops a record at its TTL, which reads exactly as an expired one. The caller owns the client.
 */
export class RedisExpectations implements ExpectationsStore {
  readonly #redis: Redis;
  readonly #scripts: Scripts;
  readonly #options: RedisExpectationsOptions;

  constructor(redis: Redis, options: RedisExpectationsOptions) {
    if (!(options.ttlMs >= 1)) throw new RangeError(`expectations TTL must be at least 1 ms, got ${options.ttlMs}`);
    redis.defineCommand('kcmExpSet', { numberOfKeys: 2, lua: SET });
    redis.defineCommand('kcmExpLower', { numberOfKeys: 2, lua: LOWER });
    redis.defineCommand('kcmExpView', { numberOfKeys: 2, lua: VIEW, readOnly: true });
    this.#redis = redis;
    this.#scripts = redis as unknown as Scripts;
    this.#options = options;
  }

  /** view reads the key's record by the server's clock. */
  async view(key: string): Promise<ExpectationsView> {
    const [hash, deletes] = this.#keys(key);
    const { now, record } = parseView(await this.#scripts.kcmExpView(hash, deletes));
    return expectationsView(record, now, this.#options.ttlMs);
  }

  /** set replaces (or deletes) the key's record in one script, stamped with the server's now (not the local 0). */
  async set(key: string, change: ExpectationChange): Promise<void> {
    const record = recordFor(change, 0);
    if (!record) return this.delete(key);
    await this.#scripts.kcmExpSet(...this.#keys(key), record.add, Math.ceil(this.#options.ttlMs), ...record.deleteKeys);
  }

  /** creationObserved lowers add by one if the key has a record. */
  creationObserved(key: string): Promise<void> {
    return this.lower(key, 1, []);
  }

  /** deletionObserved lowers del by one if podKey is tracked under the key, and untracks it. */
  deletionObserved(key: string, podKey: string): Promise<void> {
    return this.lower(key, 0, [podKey]);
  }

  /** lower lowers add by adds and del by the tracked podKeys, atomically, if the key has a record. */
  async lower(key: string, adds: number, podKeys: readonly string[]): Promise<void> {
    await this.#scripts.kcmExpLower(...this.#keys(key), adds, ...podKeys);
  }

  /** delete removes the record and its delete keys. */
  async delete(key: string): Promise<void> {
    const [hash, deletes] = this.#keys(key);
    await this.#redis.del(hash, deletes);
  }

  #keys(key: string): [hash: string, deletes: string] {
    const hash = `${this.#options.prefix ?? 'kcm-bus:exp'}:{${this.#options.controller}:${key}}`;
    return [hash, `${hash}:deletes`];
  }
}

/** parseView turns the VIEW script's reply into the server's now and the record, if there is one. */
function parseView(reply: unknown): { readonly now: number; readonly record: ControlleeExpectations | undefined } {
  if (!Array.isArray(reply) || typeof reply[0] !== 'string') throw new Error(`expectations: unexpected reply ${JSON.stringify(reply)}`);
  const now = Number(reply[0]);
  if (reply.length === 1) return { now, record: undefined };
  const [, add, del, timestamp, deleteKeys] = reply as [string, string, string, string, string[]];
  return { now, record: { add: Number(add), del: Number(del), timestamp: Number(timestamp), deleteKeys } };
}
