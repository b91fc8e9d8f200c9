import { createRequire } from 'node:module';

/** FindArgs are kafkajs's Cluster.findGroupCoordinator arguments (src/cluster/index.js). */
type FindArgs = { readonly groupId: string; readonly coordinatorType?: number };
type Broker = object;
type ClusterProto = { findGroupCoordinator(this: object, args: FindArgs): Promise<Broker> };

/** Cluster is kafkajs 2.2.4's cluster, loaded from its source (the package has no `exports` map). */
export const Cluster = createRequire(import.meta.url)('kafkajs/src/cluster/index.js') as { prototype: ClusterProto };

/** TRANSACTION is kafkajs's COORDINATOR_TYPES.TRANSACTION (src/protocol/coordinatorTypes.js). */
const TRANSACTION = 1;

/** KEEP_ON: a call that failed with this still reached the right coordinator (a transaction begun too soon). */
const KEEP_ON = new Set(['CONCURRENT_TRANSACTIONS']);

const CACHE = Symbol('kcm-bus: transaction coordinators');
const PATCHED = Symbol('kcm-bus: transaction coordinators cached');

/**
 * cacheTransactionCoordinators makes kafkajs 2.2.4 remember a transactional id's coordinator. Its transaction
 * manager looks the coordinator up (a FindCoordinator request) before every transactional call: twice a
 * transaction (AddPartitionsToTxn, EndTxn), two requests of every five the watcher sends. The Java client keeps it
 * until a call fails with NOT_COORDINATOR or the connection breaks; here a cluster keeps it until any call on it
 * fails other than with CONCURRENT_TRANSACTIONS, and the retry that follows looks it up again. Group coordinators
 * (consumers) are left as kafkajs keeps them. Idempotent: the prototype is patched once.
 */
export function cacheTransactionCoordinators(cluster: { prototype: ClusterProto } = Cluster): void {
  const proto = cluster.prototype as ClusterProto & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const find = proto.findGroupCoordinator;
  proto.findGroupCoordinator = async function (this: object & { [CACHE]?: Map<string, Broker> }, args: FindArgs) {
    if (args.coordinatorType !== TRANSACTION) return find.call(this, args);
    const cache = (this[CACHE] ??= new Map<string, Broker>());
    const known = cache.get(args.groupId);
    if (known !== undefined) return known;
    const broker = forgetOnFailure(await find.call(this, args), () => cache.delete(args.groupId));
    cache.set(args.groupId, broker);
    return broker;
  };
  proto[PATCHED] = true;
}

/** forgetOnFailure is the broker whose calls, when they fail other than KEEP_ON, call forget before rejecting. */
function forgetOnFailure(broker: Broker, forget: () => void): Broker {
  const failed = (err: unknown): never => {
    if (!KEEP_ON.has((err as { type?: string } | null)?.type ?? '')) forget();
    throw err;
  };
  return new Proxy(broker, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        try {
          const result: unknown = value.apply(target, args);
          return result instanceof Promise ? result.catch(failed) : result;
        } catch (err) {
          return failed(err);
        }
      };
    },
  });
}
