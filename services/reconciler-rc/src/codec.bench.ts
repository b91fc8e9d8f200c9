/**
 * `npm run bench:codec` — CPU per pod watch event in the codec, the part of every hop that is ours alone: the
 * watcher's encode (JSON → Confluent bytes), a reader's whole decode, and reconciler-rc's decode through its input's
 * fields (PROJECTED_POD_FIELDS), then its projection; beside them JSON.stringify and JSON.parse of the same event, the
 * yardstick of DESIGN's "Encoding costs what the data has". The pod is the realistic fixture (a replica as the
 * apiserver serves it, managedFields included). No I/O: an in-memory registry, one process. The rounds of the rows
 * are interleaved (one round of each row, then the next), so that a machine whose speed drifts moves every row alike,
 * and each row prints its fastest round and its ratio to its JSON counterpart. It lives beside the projection it
 * measures: bench/ drives the system from outside and imports no service's modules.
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

/** Row is one measured call, and the name of the JSON row it is compared with. */
type Row = { readonly name: string; readonly call: () => Promise<unknown>; readonly versus?: string };

/** microsPerCall times PER_ROUND calls of f, in µs per call. */
async function microsPerCall(f: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < PER_ROUND; i++) await f();
  return Number(process.hrtime.bigint() - started) / 1000 / PER_ROUND;
}

/** fastest runs one warm-up round and ROUNDS rounds of every row, interleaved, and keeps each row's fastest. */
async function fastest(rows: readonly Row[]): Promise<Map<string, number>> {
  const best = new Map<string, number>();
  for (let r = 0; r <= ROUNDS; r++) {
    for (const row of rows) {
      const micros = await microsPerCall(row.call);
      if (r > 0) best.set(row.name, Math.min(micros, best.get(row.name) ?? Infinity));
    }
  }
  return best;
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
const text = JSON.stringify(record);

const rows: readonly Row[] = [
  { name: 'JSON.stringify', call: async () => JSON.stringify(record) },
  { name: 'JSON.parse', call: async () => JSON.parse(text) },
  { name: 'watcher: encode', call: () => writer.encode(record), versus: 'JSON.stringify' },
  { name: 'reader: decode whole', call: () => whole.decode(bytes), versus: 'JSON.parse' },
  { name: 'reconciler-rc: decode its fields', call: () => viewed.decode(bytes), versus: 'JSON.parse' },
  {
    name: 'reconciler-rc: decode its fields, project',
    call: async () => projectPod(((await viewed.decode(bytes)).value as { object: unknown }).object),
    versus: 'JSON.parse',
  },
];
console.log(`pod watch event of ${bytes.length} bytes (${text.length} as JSON)`);
console.log(`µs per record, fastest of ${ROUNDS} interleaved rounds of ${PER_ROUND}; ratio to the JSON row named`);
const best = await fastest(rows);
for (const { name, versus } of rows) {
  const micros = best.get(name) ?? NaN;
  const ratio = versus === undefined ? '' : `  ${(micros / (best.get(versus) ?? NaN)).toFixed(2)}× ${versus}`;
  console.log(`${name.padEnd(44)} ${micros.toFixed(1).padStart(8)} µs${ratio}`);
}
