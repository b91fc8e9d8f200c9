import type { Redis } from 'ioredis';
import type { ExpectationChange, ExpectationsView } from '../controller/reconciler.ts';
import {
  type ControlleeExpectations,
  type ExpectationsStore,
  expectationsView,
  FencedError,
  recordFor,
} from './expectations.ts';
import { TransientError } from '../faults/record-fault.ts';

/** NOW_MS is the Redis server's clock in ms as an exact string: every replica stamps and expires by one clock. */
const NOW_MS = `local t = redis.call('TIME')
local now = t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000))`;

/**
 * FENCE admits a record change by the member holding the partition's newest fencing token (KEYS[4], ARGV[1] the member's
 * token): an older token fails with FENCED, a newer one than the fence's (after a Redis flush) becomes the fence.
 */
const FENCE = `local fence = tonumber(redis.call('GET', KEYS[4]) or '0')
local token = tonumber(ARGV[1])
if token < fence then return redis.error_reply('FENCED a newer member took the fencing token of the partition') end
if token > fence then redis.call('SET', KEYS[4], ARGV[1]) end`;

/**
 * TAKE_TOKEN takes a partition's fencing token (KEYS[1] its fence): the token is the server's clock in µs, or one past the fence if that
 * is ahead, so tokens only grow, across a Redis flush too.
 */
const TAKE_TOKEN = `if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local token = math.max(tonumber(t[1]) * 1000000 + tonumber(t[2]), tonumber(redis.call('GET', KEYS[1]) or '0') + 1)
local text = string.format('%.0f', token)
redis.call('SET', KEYS[1], text)
return text`;

/** SET replaces a record: KEYS = record hash, creates set, deletes set, fence; ARGV = token, ttl ms, number of creates, creates…, deletes…. */
const SET = `if redis.replicate_commands then redis.replicate_commands() end
${FENCE}
${NOW_MS}
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
local creates = tonumber(ARGV[3])
for i = 4, #ARGV do redis.call('SADD', (i - 3 <= creates) and KEYS[2] or KEYS[3], ARGV[i]) end
redis.call('HSET', KEYS[1], 'timestamp', now)
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
return now`;

/** DELETE removes a record: KEYS = record hash, creates set, deletes set, fence; ARGV = token. */
const DELETE = `${FENCE}
return redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])`;

/** LOWER untracks keys of an existing record: ARGV = number of creates, creates…, deletes…. */
const LOWER = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local creates = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('SREM', (i - 1 <= creates) and KEYS[2] or KEYS[3], ARGV[i]) end
return 1`;

/** VIEW reads the server's now and the record in one step: { now [, timestamp, creates, deletes] }. */
const VIEW = `${NOW_MS}
local timestamp = redis.call('HGET', KEYS[1], 'timestamp')
if not timestamp then return { now } end
return { now, timestamp, redis.call('SMEMBERS', KEYS[2]), redis.call('SMEMBERS', KEYS[3]) }`;

type Script = (...keysAndArgs: (string | number)[]) => Promise<unknown>;

/** Scripts are the commands defineCommand adds to the client (ioredis cannot type them), run by EVALSHA. */
type Scripts = {
  readonly [name in 'kcmExpSet' | 'kcmExpDelete' | 'kcmExpLower' | 'kcmExpView' | 'kcmExpTakeToken']: Script;
};

/** RedisExpectationsOptions: whose expectations (a key namespace per controller), their TTL, and the key prefix. */
export type RedisExpectationsOptions = {
  /** controller is the controller's name (e.g. "replicationcontroller-controller"): a key namespace of its own. */
  readonly controller: string;
  /** ttlMs is --expectations-ttl-seconds in ms: a record expires and is dropped by Redis this long after it is set. */
  readonly ttlMs: number;
  /** partitionOf is a controller key's partition: the member that took its fencing token last is the one that may set its records. */
  readonly partitionOf: (key: string) => number;
  /** prefix of every Redis key; default "kcm-bus:exp". */
  readonly prefix?: string;
};

/**
 * RedisExpectations is the ExpectationsStore of the services: per controller key a hash {timestamp} and the sets of
 * object keys whose creation and deletion are expected, `<prefix>:{<controller>:<partition>}:<key>`, `…:creates`,
 * `…:deletes`, beside the partition's fence `<prefix>:{<controller>:<partition>}:fence` (one hash tag per partition:
 * one Redis Cluster slot). Every change is one Lua script, so concurrent workers and replicas never lose an update,
 * and a restarted or newly assigned replica reads the same record. Timestamps and expiry use the Redis server's
 * clock; Redis drops a record at its TTL, which reads exactly as an expired one. The caller owns the client.
 *
 * Records are fenced, as Kafka fences a zombie producer by its epoch: a member takes its partitions' fencing tokens when
 * they are assigned (takeFencingTokens), and a set or delete carries the member's token, which Redis refuses once a
 * newer member took the partition's. A member that lost a partition mid-sync, or stalled past its session, cannot overwrite the new
 * owner's record with its stale decision (over-creation). Observations (lower) are facts, whoever reports them.
 */
export class RedisExpectations implements ExpectationsStore {
  readonly #scripts: Scripts;
  readonly #options: RedisExpectationsOptions;
  readonly #tokens = new Map<number, string>();

  constructor(redis: Redis, options: RedisExpectationsOptions) {
    if (!(options.ttlMs >= 1)) throw new RangeError(`expectations TTL must be at least 1 ms, got ${options.ttlMs}`);
    redis.defineCommand('kcmExpSet', { numberOfKeys: 4, lua: SET });
    redis.defineCommand('kcmExpDelete', { numberOfKeys: 4, lua: DELETE });
    redis.defineCommand('kcmExpLower', { numberOfKeys: 3, lua: LOWER });
    redis.defineCommand('kcmExpView', { numberOfKeys: 3, lua: VIEW, readOnly: true });
    redis.defineCommand('kcmExpTakeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
    this.#scripts = redis as unknown as Scripts;
    this.#options = options;
  }

  /** view reads the key's record by the server's clock. */
  async view(key: string): Promise<ExpectationsView> {
    const { now, record } = parseView(await reachRedis(this.#scripts.kcmExpView(...this.#keys(key))));
    return expectationsView(record, now, this.#options.ttlMs);
  }

  /** takeFencingTokens takes the partitions' fencing tokens for this member: from now on only its record changes are admitted there. */
  async takeFencingTokens(partitions: readonly number[]): Promise<void> {
    for (const partition of partitions)
      this.#tokens.set(partition, String(await reachRedis(this.#scripts.kcmExpTakeToken(this.#fence(partition)))));
  }

  /** set replaces (or deletes) the key's record in one script, stamped with the server's now (not the local 0). */
  async set(key: string, change: ExpectationChange): Promise<void> {
    const record = recordFor(change, 0);
    if (!record) return this.delete(key);
    const { createKeys, deleteKeys } = record;
    const ttl = Math.ceil(this.#options.ttlMs);
    await reachRedis(
      this.#scripts.kcmExpSet(...this.#fencedKeys(key), ttl, createKeys.length, ...createKeys, ...deleteKeys),
    );
  }

  /** lower untracks the given creations and deletions atomically, if the key has a record. */
  async lower(key: string, creates: readonly string[], deletes: readonly string[]): Promise<void> {
    if (creates.length + deletes.length > 0)
      await reachRedis(this.#scripts.kcmExpLower(...this.#keys(key), creates.length, ...creates, ...deletes));
  }

  /** delete removes the record and its delete keys. */
  async delete(key: string): Promise<void> {
    await reachRedis(this.#scripts.kcmExpDelete(...this.#fencedKeys(key)));
  }

  /** #fencedKeys are a fenced script's arguments for a key: its record's keys, its partition's fence, this member's token. */
  #fencedKeys(key: string): [hash: string, creates: string, deletes: string, fence: string, token: string] {
    const partition = this.#options.partitionOf(key);
    const token = this.#tokens.get(partition);
    if (token === undefined)
      throw new FencedError(`expectations of ${key}: partition ${partition} has no fencing token of this member`);
    return [...this.#keys(key, partition), this.#fence(partition), token];
  }

  #slot(partition: number): string {
    return `${this.#options.prefix ?? 'kcm-bus:exp'}:{${this.#options.controller}:${partition}}`;
  }

  #fence(partition: number): string {
    return `${this.#slot(partition)}:fence`;
  }

  #keys(key: string, partition = this.#options.partitionOf(key)): [hash: string, creates: string, deletes: string] {
    const hash = `${this.#slot(partition)}:${key}`;
    return [hash, `${hash}:creates`, `${hash}:deletes`];
  }
}

/**
 * reachRedis marks a failed call as transient: Redis down, a command timeout or the client's retries exhausted all
 * pass, so the record or sync that needed it is retried, never dead-lettered. A fenced script's FENCED reply is a
 * FencedError instead.
 */
async function reachRedis<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof Error && err.message.startsWith('FENCED'))
      throw new FencedError(`expectations: ${err.message}`, { cause: err });
    throw new TransientError(`expectations store (Redis): ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
}

/** parseView turns the VIEW script's reply into the server's now and the record, if there is one. */
function parseView(reply: unknown): { readonly now: number; readonly record: ControlleeExpectations | undefined } {
  if (!Array.isArray(reply) || typeof reply[0] !== 'string')
    throw new Error(`expectations: unexpected reply ${JSON.stringify(reply)}`);
  const now = Number(reply[0]);
  if (reply.length === 1) return { now, record: undefined };
  const [, timestamp, createKeys, deleteKeys] = reply as [string, string, string[], string[]];
  return { now, record: { timestamp: Number(timestamp), createKeys, deleteKeys } };
}
