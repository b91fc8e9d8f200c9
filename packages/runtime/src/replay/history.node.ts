import type { Bus } from '../bus/bus.ts';
import { AvroCodec } from '../codec/codec.avro.ts';
import { Serde } from '../codec/serde.ts';
import type { Mutation } from '../mutation/mutation.ts';
import { recordKey, routeRecord } from '../consumer/record-route.ts';
import type { SchemaRegistry } from '../registry/registry.ts';
import type { Signing } from '../signing/signing.ts';
import { kindOfTopic, watchTopic } from '@kcm-bus/schemas/kinds.ts';
import { epochOf } from '@kcm-bus/schemas/watch-record.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import type { TimedDecision, ReplayInput } from './replay-input.ts';

/** HistoryReader reads what a replay needs from the topics: the inputs' history and the deployed decisions. */
export type HistoryReader = {
  readonly bus: Bus;
  readonly registry: SchemaRegistry;
  readonly progress: (line: string) => void;
};

/** History is records of a controller's up to the window's end, in time order, and those left out as undecodable. */
export type History = { readonly inputs: readonly ReplayInput[]; readonly skipped: number };

/**
 * readHistory reads each declared input's history topic (`kcm.state.pods` is replayed from `kcm.watch.pods`, which
 * keeps every version of the audit window) up to `to`, and orders the records by their time, each topic's order kept
 * among equal times. A record that does not decode or does not name its object is counted and left out, and so is
 * a record of an older watcher epoch than its partition's newest (a zombie's), as the live members leave it out. Each
 * record names its history offset as its cause, as a live member's read of the history did, so a replayed sync of the
 * same input makes the same mutation ids (and so meets its results).
 */
export async function readHistory(r: HistoryReader, inputTopics: readonly string[], to: number): Promise<History> {
  const inputs: ReplayInput[] = [];
  let skipped = 0;
  for (const topic of inputTopics) {
    const history = watchTopic(kindOfTopic(topic));
    const serde = new Serde(r.registry, history, loadWatchSchema(kindOfTopic(topic)), (s) => new AvroCodec(s));
    const floors = new Map<number, bigint>();
    await r.bus.readToEnd(history, async (record, partition) => {
      const at = Number(record.timestamp);
      const epoch = epochOf(record.headers);
      if (at > to || epoch < (floors.get(partition) ?? 0n)) return;
      floors.set(partition, epoch);
      const routed = await routeRecord(serde, undefined, history, partition, record, true).catch(() => undefined);
      if (routed === undefined) skipped++;
      else if (routed.kind === 'event') inputs.push({ at, topic, partition, kind: 'event', event: routed.event });
      else if (routed.kind === 'watermark') {
        inputs.push({
          at,
          topic,
          partition,
          kind: 'watermark',
          observedAt: routed.observedAt,
          resourceVersion: routed.resourceVersion,
        });
      }
    });
    r.progress(`read ${history}: ${inputs.length} records so far`);
  }
  return { inputs: inputs.sort((a, b) => a.at - b.at), skipped };
}

/**
 * readResults reads the controller's results on kcm.mutation-results up to `to`, in time order, verified as its
 * running members verify them; one that does not decode or verify is counted and left out.
 */
export async function readResults(
  r: HistoryReader,
  controller: string,
  signing: Signing,
  to: number,
): Promise<History> {
  const topic = MUTATION_TOPICS.results;
  const serde = new Serde(r.registry, topic, loadMutationSchemas().result, (s) => new AvroCodec(s));
  const inputs: ReplayInput[] = [];
  let skipped = 0;
  await r.bus.readToEnd(topic, async (record, partition) => {
    const at = Number(record.timestamp);
    if (at > to) return;
    const routed = await routeRecord(serde, signing, topic, partition, record, true).catch(() => undefined);
    if (routed === undefined) skipped++;
    else if (routed.kind === 'result' && routed.result.controller === controller) {
      inputs.push({ at, topic, partition, kind: 'result', result: routed.result, cause: routed.cause });
    }
  });
  r.progress(`read ${topic}: ${inputs.length} results of ${controller}`);
  return { inputs: inputs.sort((a, b) => a.at - b.at), skipped };
}

/**
 * readDeployed reads what the deployed controller decided in the window: its mutations on kcm.mutations whose
 * createdAt falls in [from, to], grouped into one decision per key and time (one sync).
 */
export async function readDeployed(
  r: HistoryReader,
  controller: string,
  from: number,
  to: number,
): Promise<readonly TimedDecision[]> {
  const serde = new Serde(
    r.registry,
    MUTATION_TOPICS.mutations,
    loadMutationSchemas().mutation,
    (s) => new AvroCodec(s),
  );
  const syncs = new Map<string, { at: number; key: string; mutations: Mutation[] }>();
  await r.bus.readToEnd(MUTATION_TOPICS.mutations, async (record) => {
    if (record.value === null) return;
    const m = (await serde.decode(record.value).catch(() => undefined))?.value as Mutation | undefined;
    const at = m === undefined ? NaN : Date.parse(m.createdAt);
    if (m === undefined || m.controller !== controller || !(at >= from && at <= to)) return;
    const key = m.reconcileKey ?? recordKey(m);
    const sync = syncs.get(`${key} ${at}`) ?? { at, key, mutations: [] };
    sync.mutations.push(m);
    syncs.set(`${key} ${at}`, sync);
  });
  r.progress(`read ${MUTATION_TOPICS.mutations}: ${syncs.size} syncs of ${controller} in the window`);
  return [...syncs.values()].sort((a, b) => a.at - b.at);
}
