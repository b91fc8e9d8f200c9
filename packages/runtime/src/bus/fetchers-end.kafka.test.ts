import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { endFetchersWithRunner, fetchOnlyWhileRunning, RunnerStoppedError } from './fetchers-end.kafka.ts';

type FetchManager = { start(): Promise<void>; stop(): Promise<void> };
type Options = {
  logger: unknown;
  getNodeIds: () => number[];
  fetch: (nodeId: number) => Promise<unknown[]>;
  handler: (batch: unknown) => Promise<void>;
};
const createFetchManager = createRequire(import.meta.url)('kafkajs/src/consumer/fetchManager.js') as (
  o: Options,
) => FetchManager;

const RUNAWAY = 1000;

const quiet = { namespace: () => quiet, info() {}, debug() {}, warn() {}, error() {} };

/**
 * stopAmidBrokerChange runs kafkajs's own fetch manager over a runner whose fetch is `wrap`ped: one broker, whose
 * fetch waits until the runner stops, and the brokers change at that moment (a broker back after a pause), as in the
 * chaos run where a writer never exited. Returns how the manager's start ended, and the fetches; a fetch past
 * RUNAWAY throws, so that a loop of them (which starves the event loop, timers too) ends.
 */
async function stopAmidBrokerChange(wrap: (f: (n: number) => Promise<unknown[]>) => (n: number) => Promise<unknown[]>) {
  const runner = { running: true, fetches: 0 };
  const stopping = Promise.withResolvers<void>();
  let nodeIds = [1];
  const fetch = async function (this: typeof runner): Promise<unknown[]> {
    if (++this.fetches > RUNAWAY) throw new Error('runaway');
    if (!this.running) return [];
    await stopping.promise;
    return [];
  };
  const wrapped = wrap(fetch as never);
  const manager = createFetchManager({
    logger: quiet,
    getNodeIds: () => nodeIds,
    fetch: (nodeId) => wrapped.call(runner as never, nodeId),
    handler: async () => undefined,
  });
  const started = manager.start().then(
    () => 'ended',
    (err: Error) => err.name,
  );
  await new Promise((resolve) => setImmediate(resolve));
  runner.running = false;
  nodeIds = [1, 2];
  stopping.resolve();
  return { outcome: await started, fetches: runner.fetches };
}

describe('fetchOnlyWhileRunning', () => {
  it("given a stop amid a change of brokers, then kafkajs's fetchers end instead of fetching nothing forever", async () => {
    const { outcome, fetches } = await stopAmidBrokerChange(fetchOnlyWhileRunning);
    assert.equal(outcome, 'KafkaJSRunnerStopped', 'the manager ends with the runner');
    assert.equal(fetches, 1, 'no fetch after the stop');
  });

  it("given kafkajs's own fetch, then the same stop loops (the fault the change removes)", async () => {
    const { outcome, fetches } = await stopAmidBrokerChange((f) => f);
    assert.equal(outcome, 'Error', 'it ended only by the runaway guard');
    assert.ok(fetches > RUNAWAY, `the new fetchers fetched nothing ${fetches} times in a loop of promises`);
  });

  it('given a running runner, then its fetch is kafkajs’s', async () => {
    const fetch = fetchOnlyWhileRunning(async () => ['batch']);
    assert.deepEqual(await fetch.call({ running: true }, 1), ['batch']);
    await assert.rejects(fetch.call({ running: false }, 1), RunnerStoppedError);
  });

  it("patches kafkajs's Runner once", () => {
    const runner = { prototype: { fetch: async () => [] as unknown[] } };
    endFetchersWithRunner(runner);
    const patched = runner.prototype.fetch;
    endFetchersWithRunner(runner);
    assert.equal(runner.prototype.fetch, patched);
  });
});
