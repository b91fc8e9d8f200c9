import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BusRecord } from '../bus/bus.ts';
import { WireFormatError } from '../codec/wire.ts';
import { jsonLogger } from '../service/log.ts';
import { TransientError } from './record-fault.ts';
import { GuardStoppedError, RecordGuard, RETRY_BACKOFF } from './record-guard.ts';

const SOURCE = { topic: 'kcm.watch.pods', partition: 1, offset: '7' };
const RECORD: BusRecord = {
  key: Buffer.from('ns/p'),
  value: Buffer.from('garbage'),
  offset: '7',
  timestamp: '0',
  headers: {},
};
const beat = async (): Promise<void> => undefined;

function guard() {
  const deadLetters: string[] = [];
  const waits: number[] = [];
  const logs: string[] = [];
  let counted = 0;
  const g = new RecordGuard({
    deadLetter: async (_source, _record, reason) => void deadLetters.push(reason),
    counted: () => void counted++,
    log: jsonLogger('test', { sink: (line) => void logs.push(line) }),
    sleep: async (ms) => void waits.push(ms),
  });
  return { g, deadLetters, waits, logs, counted: () => counted };
}

describe('RecordGuard: no record can stop a consumer', () => {
  it('given a poison record, then it is dead-lettered with the reason, counted, and handling returns (the consumer goes on)', async () => {
    const h = guard();
    await h.g.handle(SOURCE, RECORD, async () => Promise.reject(new WireFormatError('unknown magic byte 0x67')), beat);
    assert.deepEqual(h.deadLetters, ['Error: unknown magic byte 0x67']);
    assert.equal(h.counted(), 1);
    assert.equal(h.g.fault(), undefined);
  });

  it('given a transient fault, then the record is retried with growing backoff, never dead-lettered, and the fault is reported until it passes', async () => {
    const h = guard();
    let calls = 0;
    const faults: (string | undefined)[] = [];
    await h.g.handle(
      SOURCE,
      RECORD,
      async () => {
        faults.push(h.g.fault());
        if (++calls < 4) throw new TransientError('redis down');
      },
      beat,
    );
    assert.deepEqual(h.waits, [RETRY_BACKOFF.durationMs, RETRY_BACKOFF.durationMs * 2, RETRY_BACKOFF.durationMs * 4]);
    assert.deepEqual(h.deadLetters, []);
    assert.match(faults[3] ?? '', /redis down/);
    assert.equal(h.g.fault(), undefined, 'cleared once the record went through');
  });

  it('given many records failing the same way, then the fault is logged once', async () => {
    const h = guard();
    for (let i = 0; i < 5; i++)
      await h.g.handle(SOURCE, RECORD, async () => Promise.reject(new WireFormatError('bad')), beat);
    assert.equal(h.deadLetters.length, 5);
    assert.equal(h.logs.length, 1);
  });

  it('given a guard stopped while a record is being retried, then the retry loop ends (the record stays uncommitted)', async () => {
    const h = guard();
    h.g.stop();
    await assert.rejects(
      h.g.handle(SOURCE, RECORD, async () => Promise.reject(new TransientError('registry down')), beat),
      GuardStoppedError,
    );
  });
});
