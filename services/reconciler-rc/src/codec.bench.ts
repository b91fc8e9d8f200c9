/**
 * `npm run bench:codec` — CPU per pod watch event in the codec, the part of every hop that is ours alone: the
 * watcher's encode (JSON → Avro value → Confluent bytes), a reader's whole decode, and reconciler-rc's decode through
 * its input's fields (PROJECTED_POD_FIELDS), then its projection. The pod is the realistic fixture (a replica as the
 * apiserver serves it, managedFields included). No I/O: an in-memory registry, one process, min of 7 rounds. It lives
 * beside the projection it measures: bench/ drives the system from outside and imports no service's modules.
 */
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { watchEventView, Serde } from '@kcm-bus/runtime/codec/index.ts';
import { realisticPod } from '@kcm-bus/runtime/codec/realistic-pod.fixture.ts';
import { memoryRegistry } from '@kcm-bus/runtime/registry/registry.fixture.ts';
import type { AvroRecord } from '@kcm-bus/schemas/avro/avro-schema.ts';
import { watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { loadWatchSchema } from '@kcm-bus/schemas/watch-schemas.fs.ts';
import { PROJECTED_POD_FIELDS, projectPod } from './project-pod.ts';

const ROUNDS = 7;
const PER_ROUND = Number(process.env['BENCH_CODEC_RECORDS'] ?? 2000);

/** microsPerCall is the fastest of ROUNDS rounds of PER_ROUND calls, in µs per call (after one round of warm-up). */
async function microsPerCall(f: () => Promise<unknown>): Promise<number> {
  const rounds: number[] = [];
  for (let r = 0; r <= ROUNDS; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) await f();
    if (r > 0) rounds.push(Number(process.hrtime.bigint() - started) / 1000 / PER_ROUND);
  }
  return Math.min(...rounds);
}

const schema = loadWatchSchema(watchedKind('pods')) as AvroRecord;
const codec = (s: object): AvroCodec => new AvroCodec(s);
const registry = memoryRegistry();
const writer = new Serde(registry, 'kcm.watch.pods', schema, codec);
const whole = new Serde(registry, 'kcm.watch.pods', schema, codec);
const viewed = new Serde(registry, 'kcm.watch.pods', schema, codec, watchEventView(schema, PROJECTED_POD_FIELDS));
const record = {
  type: 'Applied',
  key: 'shop/web-7xk2p',
  resourceVersion: '184467',
  observedAt: '2026-11-27T00:00:00.000Z',
  object: realisticPod,
};
const bytes = (await writer.encode(record)).bytes;

const rows: readonly (readonly [string, () => Promise<unknown>])[] = [
  ['watcher: encode', () => writer.encode(record)],
  ['reader: decode whole', () => whole.decode(bytes)],
  ['reconciler-rc: decode its fields', () => viewed.decode(bytes)],
  [
    'reconciler-rc: decode its fields, project',
    async () => projectPod(((await viewed.decode(bytes)).value as { object: unknown }).object),
  ],
];
console.log(`pod watch event of ${bytes.length} bytes; µs per record, fastest of ${ROUNDS} rounds of ${PER_ROUND}`);
for (const [name, f] of rows) console.log(`${name.padEnd(44)} ${(await microsPerCall(f)).toFixed(1).padStart(8)} µs`);
