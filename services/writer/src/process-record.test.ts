import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WireFormatError } from '@kcm-bus/runtime/codec/index.ts';
import { RecordGuard } from '@kcm-bus/runtime/faults/index.ts';
import type { MutationResult, Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import { aCreate, aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import { RegistryError } from '@kcm-bus/runtime/registry/index.ts';
import { jsonLogger } from '@kcm-bus/runtime/service/index.ts';
import { ForgedRecordError } from '@kcm-bus/runtime/signing/index.ts';
import { realScheduler } from '@kcm-bus/runtime/workqueue/index.ts';
import { abortableSleep } from './backoff.ts';
import { AbandonedError } from './executor.ts';
import { OversizedRecordError } from '@kcm-bus/runtime/bus/index.ts';
import { processRecord, type ConsumedMutation, type RecordPorts } from './process-record.ts';
import { guardedBy } from './record-ports.ts';
import { resultOf } from './result.ts';

/** World records what processRecord did: dead letters (reasons), published results, applied mutations, log lines. */
type World = {
  readonly dead: string[];
  readonly results: MutationResult[];
  readonly applied: Mutation[];
  readonly logs: string[];
};

const recordOf = (value: Buffer | null, offset = 0): ConsumedMutation => ({
  partition: 0,
  offset,
  key: 'pods/default/web-1',
  lane: '',
  record: { key: null, value, offset: String(offset), timestamp: '0', headers: {} },
});
const bytes = Buffer.from('x');
const applied = (m: Mutation): MutationResult =>
  resultOf(
    m,
    m.target.name,
    { type: 'Final', outcome: 'Applied', status: 200, reason: null, message: '', uid: 'u', resourceVersion: '1' },
    1,
    'now',
  );

/** given builds ports whose decode answers (or throws) what `decoded` says, under a real RecordGuard. */
function given(
  decoded: () => Promise<unknown>,
  opts: {
    apply?: (m: Mutation) => Promise<MutationResult>;
    encode?: () => Promise<Buffer>;
    signal?: AbortSignal;
    verify?: RecordPorts['verify'];
  } = {},
): { world: World; ports: RecordPorts; guard: RecordGuard } {
  const world: World = { dead: [], results: [], applied: [], logs: [] };
  const guard = new RecordGuard({
    deadLetter: async (_source, _record, reason) => void world.dead.push(reason),
    counted: () => undefined,
    log: jsonLogger('test', { sink: (line) => world.logs.push(line) }),
    sleep: (ms) => abortableSleep(ms > 1 ? 1 : ms, realScheduler, opts.signal),
  });
  const ports: RecordPorts = {
    guarded: guardedBy(guard),
    decode: decoded,
    verify: opts.verify ?? (() => undefined),
    now: () => 'now',
    apply: opts.apply ?? (async (m) => (world.applied.push(m), applied(m))),
    encodeResult: opts.encode ?? (async () => Buffer.from('result')),
    publishResult: async (_record, result) => void world.results.push(result),
  };
  return { world, ports, guard };
}

describe('processRecord: no record stops the writer', () => {
  it('given a Delete whose body is not JSON, then it is dead-lettered naming body and never applied', async () => {
    const { world, ports } = given(async () => aMutation({ body: 'not json' }));
    await processRecord(recordOf(bytes), ports);
    assert.equal(world.applied.length, 0);
    assert.match(world.dead[0] ?? '', /not a mutation: body: not JSON/);
  });

  it('given a mutation its controller did not sign, then it is dead-lettered with the reason, never applied and given no result', async () => {
    const forged = (): never => {
      throw new ForgedRecordError('unsigned: a record here must be signed by replicationcontroller-controller');
    };
    const { world, ports } = given(async () => aCreate(), { verify: forged });
    await processRecord(recordOf(bytes), ports);
    assert.deepEqual([world.applied.length, world.results.length], [0, 0]);
    assert.match(world.dead[0] ?? '', /^ForgedRecordError: unsigned/);
  });

  it('given garbage, a wrong magic byte, an unknown schema id, truncated Avro or a tombstone, then each is one dead letter', async () => {
    const faults = [
      new WireFormatError('unknown magic byte 0x6e'),
      new RegistryError('schema 987654 not found', 404),
      new RangeError('truncated buffer'),
    ];
    for (const fault of faults) await processRecord(recordOf(bytes), given(async () => Promise.reject(fault)).ports);
    const { world, ports } = given(async () => assert.fail('a tombstone is not decoded'));
    await processRecord(recordOf(null), ports);
    assert.deepEqual(world.dead, ['InvalidRecordError: a tombstone is not a mutation']);
  });

  it('given two undecodable records of one kind, then the fault is logged once', async () => {
    const { world, ports } = given(async () => Promise.reject(new WireFormatError('magic')));
    await processRecord(recordOf(bytes, 0), ports);
    await processRecord(recordOf(bytes, 1), ports);
    assert.equal(world.dead.length, 2);
    assert.equal(world.logs.length, 1);
  });

  it('given applying throws, then the mutation gets a Failed result instead of stopping the writer', async () => {
    const { world, ports } = given(async () => aCreate(), {
      apply: async () => Promise.reject(new TypeError('a bug')),
    });
    await processRecord(recordOf(bytes), ports);
    assert.deepEqual(
      world.results.map((r) => [r.outcome, r.reason, r.message]),
      [['Failed', 'InternalError', 'the writer failed applying it: a bug']],
    );
  });

  it('given a result too large to publish, then the mutation is dead-lettered with that reason', async () => {
    const { world, ports } = given(async () => aCreate(), {
      encode: async () => Promise.reject(new OversizedRecordError('a record of 2000000 bytes …')),
    });
    await processRecord(recordOf(bytes), ports);
    assert.deepEqual([world.results.length, world.dead], [0, ['OversizedRecordError: a record of 2000000 bytes …']]);
  });
});

describe('processRecord: a transient fault is retried, never dead-lettered', () => {
  it('given the registry unreachable twice, then the record is retried, reported meanwhile, and applied once it decodes', async () => {
    let calls = 0;
    const faults: (string | undefined)[] = [];
    const { world, ports, guard } = given(async () => {
      faults.push(guard.fault());
      return ++calls <= 2 ? Promise.reject(new TypeError('fetch failed')) : aMutation();
    });
    await processRecord(recordOf(bytes), ports);
    assert.deepEqual([world.dead, world.applied.length, world.results.length], [[], 1, 1]);
    assert.match(faults[2] ?? '', /fetch failed/, 'not ready while retrying');
    assert.equal(guard.fault(), undefined, 'ready again');
  });

  it('given the writer stops while a record is retried, then the record is abandoned: no dead letter, no result', async () => {
    const stopping = new AbortController();
    const { world, ports } = given(
      async () => {
        stopping.abort(new AbandonedError('the writer is stopping'));
        throw new RegistryError('unavailable', 503);
      },
      { signal: stopping.signal },
    );
    await assert.rejects(processRecord(recordOf(bytes), ports), AbandonedError);
    assert.deepEqual([world.dead, world.results], [[], []]);
  });
});
