import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { beat, heartbeatInBackground, Runner, type RunnerState } from './heartbeat-thread.kafka.ts';

type Sent = { groupId: string; memberId: string; groupGenerationId: number };

/** member is a runner's state whose coordinator holds every heartbeat's answer until told (answer/fail). */
function member(o: { memberId?: string | null } = {}) {
  const sent: Sent[] = [];
  const answers: PromiseWithResolvers<unknown>[] = [];
  const consumerGroup = {
    groupId: 'kcm-bus-writer',
    memberId: o.memberId === undefined ? 'member-1' : o.memberId,
    generationId: 7,
    lastRequest: 1,
    coordinator: {
      heartbeat: (args: Sent) => {
        sent.push(args);
        const answer = Promise.withResolvers<unknown>();
        answers.push(answer);
        return answer.promise;
      },
    },
  };
  const runner: RunnerState = { running: true, heartbeatInterval: 2000, consumerGroup };
  return { runner, group: consumerGroup, sent, answers };
}

/** FakeRunner stands for kafkajs's Runner: start joins, handleBatch runs a batch until it is told to end. */
class FakeRunner {
  running = false;
  heartbeatInterval = 2000;
  consumerGroup = member().group;
  batchEnds: PromiseWithResolvers<void>[] = [];
  async start(): Promise<void> {
    this.running = true;
  }
  stopped = Promise.withResolvers<void>();
  async stop(): Promise<void> {
    this.running = false;
    await this.stopped.promise;
  }
  async handleBatch(): Promise<void> {
    const end = Promise.withResolvers<void>();
    this.batchEnds.push(end);
    await end.promise;
  }
}

/** patchedRunner is a fresh FakeRunner class with a heartbeat thread, on mocked timers, counting its heartbeats. */
function patchedRunner(t: TestContext, maxMs = 10_000) {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
  class Patched extends FakeRunner {}
  heartbeatInBackground(Patched as unknown as Parameters<typeof heartbeatInBackground>[0], maxMs);
  const runner = new Patched();
  let beats = 0;
  runner.consumerGroup.coordinator.heartbeat = async () => void beats++;
  return { runner, beats: () => beats, tick: (ms: number) => t.mock.timers.tick(ms) };
}

describe('beat', () => {
  it('given a member, then it sends a heartbeat of its group, id and generation, not behind one unanswered', () => {
    const m = member();
    beat(m.runner, 10_000);
    beat(m.runner, 12_000);
    const expected = { groupId: 'kcm-bus-writer', memberId: 'member-1', groupGenerationId: 7 };
    assert.deepEqual(m.sent, [expected, expected], 'the second went out while the first had no answer');
  });

  it('given a member without an id (joining), then nothing is sent', () => {
    const m = member({ memberId: null });
    beat(m.runner, 10_000);
    assert.equal(m.sent.length, 0);
  });

  it('given an answer, then the runner heartbeats an interval later; given an error, its next heartbeat is due', async () => {
    const m = member();
    beat(m.runner, 10_000);
    m.answers[0]!.resolve(undefined);
    await m.answers[0]!.promise;
    await Promise.resolve();
    assert.ok(m.group.lastRequest > 1, 'answered: the runner waits an interval before its own');
    beat(m.runner, 12_000);
    m.answers[1]!.reject(Object.assign(new Error('The group is rebalancing'), { type: 'REBALANCE_IN_PROGRESS' }));
    await m.answers[1]!.promise.catch(() => undefined);
    await Promise.resolve();
    assert.equal(m.group.lastRequest, 0, "refused: the runner's next heartbeat meets the answer and acts on it");
  });
});

describe('heartbeatInBackground', () => {
  it('given a running member, then it heartbeats every interval until it stops', async (t) => {
    const r = patchedRunner(t);
    await r.runner.start();
    r.tick(2000);
    r.tick(2000);
    r.tick(2000);
    assert.equal(r.beats(), 3, 'an idle member beats every heartbeat.interval.ms, fetch or not');
    const stopped = r.runner.stop();
    r.tick(2000);
    assert.equal(r.beats(), 4, 'it beats while its stop waits for the fetches in flight, until it left');
    r.runner.stopped.resolve();
    await stopped;
    r.tick(10_000);
    assert.equal(r.beats(), 4, 'no heartbeat after stop');
  });

  it('given a batch stuck past maxMs, then the beats stop until it ends', async (t) => {
    const r = patchedRunner(t, 10_000);
    await r.runner.start();
    const batch = r.runner.handleBatch();
    for (let s = 0; s < 15; s++) r.tick(1000);
    assert.equal(r.beats(), 5, 'beats while the batch is within max.poll.interval.ms, none past it');
    r.runner.batchEnds[0]!.resolve();
    await batch;
    r.tick(2000);
    assert.equal(r.beats(), 6, 'beats again once it ended');
  });

  it('given a runner that stopped on its own (a crash), then its thread ends at the next turn', async (t) => {
    const r = patchedRunner(t);
    await r.runner.start();
    r.runner.running = false;
    r.tick(2000);
    r.runner.running = true;
    r.tick(4000);
    assert.equal(r.beats(), 0);
  });

  it("patches kafkajs's Runner once", () => {
    heartbeatInBackground();
    const start = Runner.prototype.start;
    heartbeatInBackground();
    assert.equal(Runner.prototype.start, start);
  });
});
