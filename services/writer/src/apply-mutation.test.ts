import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aCreate, aMutation, anEvent, aRecordEvent } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import { type Scheduler, FakeClock } from '@kcm-bus/runtime/workqueue/index.ts';
import { DEFAULT_ALLOWLIST } from './allowlist.ts';
import { applyMutation, type WriterDeps } from './apply-mutation.ts';
import type { KubeApi } from './send.ts';
import { DEFAULT_RETRY_POLICY } from './backoff.ts';
import { EventCorrelator } from './event-correlator.ts';
import type { HttpAnswer } from './outcome.ts';
import type { KubeRequest } from './request.ts';

const ok = (status: number, body: object = { metadata: { uid: 'u1', resourceVersion: '5' } }): HttpAnswer => ({
  type: 'Response',
  status,
  retryAfter: null,
  body: JSON.stringify(body),
});
const failure = (status: number, reason: string, retryAfter: string | null = null): HttpAnswer => ({
  type: 'Response',
  status,
  retryAfter,
  body: JSON.stringify({ kind: 'Status', reason, message: reason }),
});

/** Harness records what applyMutation sent, how often it asked the budget, and how long it waited between tries. */
type Harness = {
  readonly deps: WriterDeps;
  readonly sent: KubeRequest[];
  readonly waits: number[];
  readonly tokens: { count: number };
};

/** given scripts the apiserver's answers, one per request, and builds the deps around them. */
function given(...answers: HttpAnswer[]): Harness {
  const sent: KubeRequest[] = [];
  const waits: number[] = [];
  const tokens = { count: 0 };
  const api: KubeApi = {
    send: async (request) => (
      sent.push(request),
      answers.shift() ?? assert.fail(`unexpected request ${request.method} ${request.path}`)
    ),
  };
  const scheduler: Scheduler = { setTimeout: (fn, ms) => (waits.push(ms), queueMicrotask(fn)), clearTimeout: () => {} };
  const deps: WriterDeps = {
    api,
    budget: { acquire: async () => void tokens.count++ },
    allowlist: DEFAULT_ALLOWLIST,
    correlator: new EventCorrelator(new FakeClock()),
    scheduler,
    now: () => '2026-11-22T14:00:01Z',
    random: () => 0,
    policy: DEFAULT_RETRY_POLICY,
  };
  return { deps, sent, waits, tokens };
}

describe('applyMutation', () => {
  it('given a Create the apiserver accepts, then one request through the budget and an Applied result naming the pod', async () => {
    const { deps, sent, tokens } = given(ok(201));
    const result = await applyMutation(aCreate(), deps);
    assert.deepEqual(
      [result.outcome, result.status, result.uid, result.attempts, result.name],
      ['Applied', 201, 'u1', 1, sent[0]!.name],
    );
    assert.equal(tokens.count, 1);
  });

  it('given a mutation outside the allowlist, then nothing is sent and the result is Refused', async () => {
    const { deps, sent } = given();
    const result = await applyMutation(aMutation({ controller: 'job-controller' }), deps);
    assert.deepEqual(
      [result.outcome, result.reason, result.message],
      ['Refused', 'NotAllowed', "job-controller may not Delete pods (not in the writer's allowlist)"],
    );
    assert.equal(sent.length, 0);
  });

  it('given a Create older than --max-create-age (a writer back from an outage, a replayed record), then nothing is sent and it is Refused as expired; an older Delete is still sent', async () => {
    const { deps, sent } = given(ok(200));
    const aged = { ...deps, maxCreateAgeMs: 300_000 };
    const stale = await applyMutation(aCreate({ createdAt: '2026-11-22T13:54:00Z' }), aged);
    assert.deepEqual([stale.outcome, stale.reason, stale.status], ['Refused', 'CreateExpired', 0]);
    assert.match(stale.message, /created 361 s ago, past --max-create-age/);
    assert.equal(sent.length, 0);
    const del = await applyMutation(aMutation({ createdAt: '2026-11-22T13:54:00Z' }), aged);
    assert.deepEqual([del.outcome, sent.length], ['Applied', 1]);
  });

  it('given a Create within --max-create-age, then it is sent', async () => {
    const { deps, sent } = given(ok(201));
    assert.equal(
      (await applyMutation(aCreate({ createdAt: '2026-11-22T13:56:00Z' }), { ...deps, maxCreateAgeMs: 300_000 }))
        .outcome,
      'Applied',
    );
    assert.equal(sent.length, 1);
  });

  it('given --max-create-age 0, then no Create expires', async () => {
    const { deps } = given(ok(201));
    assert.equal(
      (await applyMutation(aCreate({ createdAt: '2026-01-01T00:00:00Z' }), { ...deps, maxCreateAgeMs: 0 })).outcome,
      'Applied',
    );
  });

  it('given an allowed verb and resource carrying what the controller may not write, then nothing is sent and the result is Refused', async () => {
    const { deps, sent } = given();
    const result = await applyMutation(
      aCreate({
        body: JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { generateName: 'web-' },
          spec: { containers: [] },
        }),
      }),
      deps,
    );
    assert.deepEqual([result.outcome, result.reason], ['Refused', 'ContentNotAllowed']);
    assert.match(
      result.message,
      /may not Create a pod whose controller is not the ReplicationController its key names/,
    );
    assert.equal(sent.length, 0);
  });

  it('given 429 with Retry-After then 503 then success, then it waits 1 s, then the backoff, and every attempt takes a token', async () => {
    const { deps, waits, tokens } = given(
      failure(429, 'TooManyRequests', '1'),
      failure(503, 'ServiceUnavailable'),
      ok(200),
    );
    const result = await applyMutation(aMutation(), deps);
    assert.deepEqual([result.outcome, result.attempts], ['Applied', 3]);
    assert.deepEqual(waits, [1000, 200]);
    assert.equal(tokens.count, 3);
  });

  it("given the apiserver never answers, then Failed with status 0 after the policy's attempts", async () => {
    const { deps, sent } = given(
      ...Array.from({ length: 3 }, (): HttpAnswer => ({ type: 'NoResponse', message: 'connect ECONNREFUSED' })),
    );
    const result = await applyMutation(aMutation(), { ...deps, policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 3 } });
    assert.deepEqual(
      [result.outcome, result.status, result.attempts, result.message],
      ['Failed', 0, 3, 'gave up after 3 attempts: connect ECONNREFUSED'],
    );
    assert.equal(sent.length, 3);
  });

  it('given a shutdown while waiting to retry, then it rejects and publishes nothing', async () => {
    const { deps } = given(failure(503, 'ServiceUnavailable'));
    const controller = new AbortController();
    const never: Scheduler = { setTimeout: () => controller.abort(new Error('shutting down')), clearTimeout: () => {} };
    await assert.rejects(
      applyMutation(aMutation(), { ...deps, scheduler: never, signal: controller.signal }),
      /shutting down/,
    );
  });
});

describe('applyMutation: RecordEvent', () => {
  it('given a first event, then the Event is created and an identical one later patches it', async () => {
    const { deps, sent } = given(ok(201), ok(200));
    const first = await applyMutation(aRecordEvent(), deps);
    const second = await applyMutation(aRecordEvent(undefined, { createdAt: '2026-11-22T14:01:00Z' }), deps);
    assert.deepEqual(
      sent.map((r) => r.method),
      ['POST', 'PATCH'],
    );
    assert.deepEqual([first.outcome, second.outcome, second.name], ['Applied', 'Applied', first.name]);
  });

  it('given the Event to patch is gone (404), then it is created instead, as client-go does', async () => {
    const { deps, sent } = given(ok(201), failure(404, 'NotFound'), ok(201));
    await applyMutation(aRecordEvent(), deps);
    const result = await applyMutation(aRecordEvent(), deps);
    assert.deepEqual(
      sent.map((r) => r.method),
      ['POST', 'PATCH', 'POST'],
    );
    assert.deepEqual([result.outcome, result.attempts], ['Applied', 2]);
  });

  it('given a spamming source, then the 26th event is Refused without a request', async () => {
    const { deps, sent } = given(...Array.from({ length: 25 }, () => ok(201)));
    const results = [];
    for (let i = 0; i < 26; i++)
      results.push(await applyMutation(aRecordEvent({ ...aRecordEvent().event!, reason: `R${i}` }), deps));
    assert.deepEqual([results[25]!.outcome, results[25]!.reason, sent.length], ['Refused', 'EventSpamFiltered', 25]);
  });
});

describe('applyMutation: an event attached to a write (RealPodControl records it only after the call succeeded)', () => {
  const created = { ...anEvent, reason: 'SuccessfulCreate' };
  const deleted = { ...anEvent, reason: 'SuccessfulDelete', message: 'Deleted pod: web-1' };
  /** recorded lets the event recording, which the result does not wait for, run to its end. */
  const recorded = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('given a Create with SuccessfulCreate attached that the apiserver accepts, then the pod and then the Event are created', async () => {
    const { deps, sent } = given(ok(201), ok(201));
    const result = await applyMutation(aCreate({ event: created }), deps);
    await recorded();
    assert.deepEqual(
      sent.map((r) => `${r.method} ${r.path.split('/').at(-1)}`),
      ['POST pods', 'POST events'],
    );
    assert.deepEqual([result.verb, result.outcome, result.name], ['Create', 'Applied', sent[0]!.name]);
  });

  it('given a Create the apiserver refuses (quota), then no SuccessfulCreate is recorded and the result is Failed', async () => {
    const { deps, sent } = given(failure(403, 'Forbidden'));
    const result = await applyMutation(aCreate({ event: created }), deps);
    await recorded();
    assert.deepEqual([result.outcome, sent.length], ['Failed', 1]);
  });

  it('given a Delete answered NotFound (AlreadyDone), then no SuccessfulDelete is recorded, as upstream records nothing', async () => {
    const { deps, sent } = given(failure(404, 'NotFound'));
    const result = await applyMutation(aMutation({ event: deleted }), deps);
    await recorded();
    assert.deepEqual([result.outcome, sent.length], ['AlreadyDone', 1]);
  });

  it("given the Event request fails, then the write's Applied result stands (events are best effort)", async () => {
    const { deps, sent } = given(ok(200), failure(403, 'Forbidden'));
    const result = await applyMutation(aMutation({ event: deleted }), deps);
    await recorded();
    assert.deepEqual([result.outcome, sent.length], ['Applied', 2]);
  });
});
