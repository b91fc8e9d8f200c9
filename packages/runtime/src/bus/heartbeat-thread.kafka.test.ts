import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { beat, heartbeatInBackground, Runner, type RunnerState } from './heartbeat-thread.kafka.ts';
import { LOOKUP_PATIENCE_MS } from './leader-moves.kafka.ts';

type Sent = { groupId: string; memberId: string; groupGenerationId: number };

/**
 * member is a runner's state whose coordinator holds every heartbeat's answer until told (answer/fail), in a 6 s
 * session; its cluster's lookups of the coordinator answer `moved` at once.
 */
function member(o: { memberId?: string | null } = {}) {
  const sent: Sent[] = [];
  const answers: PromiseWithResolvers<unknown>[] = [];
  const lookups: string[] = [];
  const moved = { heartbeat: async () => undefined };
  const consumerGroup = {
    groupId: 'kcm-bus-writer',
    memberId: o.memberId === undefined ? 'member-1' : o.memberId,
    generationId: 7,
    sessionTimeout: 6000,
    lastRequest: 1,
    offsetManager: null,
    cluster: {
      findGroupCoordinator: async ({ groupId }: { groupId: string }) => (lookups.push(groupId), moved),
    },
    coordinator: {
      heartbeat: (args: Sent) => {
        sent.push(args);
        const answer = Promise.withResolvers<unknown>();
        answers.push(answer);
        return answer.promise;
      },
    } as unknown,
  };
  const runner: RunnerState = { running: true, heartbeatInterval: 2000, consumerGroup };
  return { runner, group: consumerGroup, sent, answers, lookups, moved };
}

/** settle lets the promise callbacks of answers already given run. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

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

type Patchable = Parameters<typeof heartbeatInBackground>;

/**
 * patchedRunner is a fresh FakeRunner class with a heartbeat thread, on mocked timers, counting its heartbeats; the
 * runner's own heartbeat (`runnerHeartbeat`) is its consumer group's, patched, over one that counts kafkajs's sends.
 */
function patchedRunner(t: TestContext, maxMs = 10_000) {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
  class Patched extends FakeRunner {}
  let kafkajsBeats = 0;
  const group = { prototype: { heartbeat: async (_args: unknown) => void kafkajsBeats++ } };
  heartbeatInBackground(Patched as unknown as Patchable[0], group as unknown as Patchable[1], maxMs);
  const runner = new Patched();
  let beats = 0;
  const coordinator = { heartbeat: async () => void beats++ };
  runner.consumerGroup.coordinator = coordinator;
  runner.consumerGroup.cluster.findGroupCoordinator = async () => coordinator;
  const runnerHeartbeat = () =>
    group.prototype.heartbeat.call(runner.consumerGroup as never, { interval: 2000 } as never);
  return {
    runner,
    beats: () => beats,
    kafkajsBeats: () => kafkajsBeats,
    runnerHeartbeat,
    tick: (ms: number) => t.mock.timers.tick(ms),
  };
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

  it('given an answer, then the runner sends none of its own for an interval', async () => {
    const m = member();
    beat(m.runner, 10_000);
    m.answers[0]!.resolve(undefined);
    await settle();
    assert.ok(m.group.lastRequest > 1, "kafkajs's heartbeat, where it is the runner's, waits an interval from it");
  });

  it('given an answer that the coordinator moved, then it is looked up again', async () => {
    const m = member();
    beat(m.runner, 10_000);
    m.answers[0]!.reject(Object.assign(new Error('Not coordinator'), { type: 'NOT_COORDINATOR_FOR_GROUP' }));
    await settle();
    assert.deepEqual(m.lookups, ['kcm-bus-writer']);
  });
});

describe('beat, given a coordinator that answers nothing', () => {
  it('when a session passed without an answer, then the coordinator is looked up again at every turn', async () => {
    const m = member();
    for (const now of [10_000, 12_000, 14_000, 16_000]) beat(m.runner, now);
    assert.deepEqual(m.lookups, [], 'within its session the coordinator is given its time');
    beat(m.runner, 16_001);
    await settle();
    assert.deepEqual(
      m.lookups,
      ['kcm-bus-writer'],
      "past the session it is looked up, as Java's sessionTimeoutExpired",
    );
    assert.equal(m.group.coordinator, m.moved, 'the next heartbeats go to the coordinator the lookup found');
    beat(m.runner, 18_000);
    await settle();
    assert.equal(m.lookups.length, 2, 'the broker named may be the silent one, not yet fenced: again while no answer');
  });

  it('when a lookup is under way, then the next turn starts none', async () => {
    const m = member();
    const found = Promise.withResolvers<typeof m.moved>();
    m.group.cluster.findGroupCoordinator = async ({ groupId }) => (m.lookups.push(groupId), found.promise);
    beat(m.runner, 10_000);
    beat(m.runner, 16_001);
    beat(m.runner, 18_000);
    await settle();
    assert.equal(m.lookups.length, 1);
    found.resolve(m.moved);
  });

  it('when it answers, errors included, then no lookup', async () => {
    const m = member();
    beat(m.runner, 10_000);
    m.answers[0]!.resolve(undefined);
    beat(m.runner, 14_000);
    m.answers[1]!.reject(Object.assign(new Error('The group is rebalancing'), { type: 'REBALANCE_IN_PROGRESS' }));
    await settle();
    beat(m.runner, Date.now() + 5000);
    await settle();
    assert.deepEqual(m.lookups, [], 'a coordinator that answered, even with an error, is alive');
  });

  it('when a lookup hangs past its patience, then the next starts and the late answer is dropped', async () => {
    const m = member();
    const hung = Promise.withResolvers<typeof m.moved>();
    const answers = [hung.promise, Promise.resolve(m.moved)];
    m.group.cluster.findGroupCoordinator = async ({ groupId }) => (m.lookups.push(groupId), answers.shift()!);
    beat(m.runner, 10_000);
    beat(m.runner, 16_001);
    beat(m.runner, 16_001 + LOOKUP_PATIENCE_MS);
    await settle();
    assert.equal(m.lookups.length, 2, 'one sent to a stopped broker waits 30 s: the next goes elsewhere');
    assert.equal(m.group.coordinator, m.moved);
    hung.resolve({ heartbeat: async () => undefined });
    await settle();
    assert.equal(m.group.coordinator, m.moved, 'the stopped broker answered late: its answer is not taken');
  });

  it('when its request to it timed out, then it is looked up again at once', async () => {
    const m = member();
    beat(m.runner, 10_000);
    m.answers[0]!.reject(Object.assign(new Error('Request timed out'), { name: 'KafkaJSRequestTimeoutError' }));
    await settle();
    assert.deepEqual(m.lookups, ['kcm-bus-writer']);
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

  it("given a running member, then the runner's heartbeat sends nothing and waits on no coordinator", async (t) => {
    const r = patchedRunner(t);
    await r.runnerHeartbeat();
    assert.equal(r.kafkajsBeats(), 1, "before its thread runs, the runner's heartbeat is kafkajs's");
    await r.runner.start();
    await r.runnerHeartbeat();
    r.tick(2000);
    assert.deepEqual([r.kafkajsBeats(), r.beats()], [1, 1], 'the thread sends them');
  });

  it("given a rejoin answer to the thread, then the runner's next heartbeat throws it, for its generation only", async (t) => {
    const r = patchedRunner(t);
    const rebalancing = Object.assign(new Error('The group is rebalancing'), { type: 'REBALANCE_IN_PROGRESS' });
    r.runner.consumerGroup.coordinator = { heartbeat: async () => Promise.reject(rebalancing) };
    await r.runner.start();
    r.tick(2000);
    await settle();
    await assert.rejects(r.runnerHeartbeat(), rebalancing, 'the runner rejoins, as on its own heartbeat');
    await r.runnerHeartbeat();
    r.tick(2000);
    await settle();
    (r.runner.consumerGroup as { generationId: number }).generationId = 8;
    await r.runnerHeartbeat();
    assert.ok(true, 'an answer to the generation before the rejoin is not thrown again');
  });

  it('given a rejoin answer from a coordinator the member has left, then it is dropped', async (t) => {
    const r = patchedRunner(t);
    const late = Promise.withResolvers<unknown>();
    r.runner.consumerGroup.coordinator = { heartbeat: () => late.promise };
    await r.runner.start();
    r.tick(2000);
    r.runner.consumerGroup.coordinator = { heartbeat: async () => undefined };
    late.reject(Object.assign(new Error('The coordinator is not aware of this member'), { type: 'UNKNOWN_MEMBER_ID' }));
    await settle();
    await r.runnerHeartbeat();
    assert.ok(true, 'a stopped broker, continued, answers what it held before it learns it was fenced');
  });

  it("patches kafkajs's Runner once", () => {
    heartbeatInBackground();
    const start = Runner.prototype.start;
    heartbeatInBackground();
    assert.equal(Runner.prototype.start, start);
  });
});
