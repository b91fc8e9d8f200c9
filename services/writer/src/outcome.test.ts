import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aMutation } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import { generatedName } from '@kcm-bus/runtime/mutation/index.ts';
import { backoffDelay } from '@kcm-bus/runtime/flowcontrol/index.ts';
import { DEFAULT_RETRY_POLICY, retryAfterMs } from './backoff.ts';
import { classify, type HttpAnswer, nextStep } from './outcome.ts';
import type { HttpMethod } from './request.ts';
import { refusedResult, resultOf } from './result.ts';

const req = (method: HttpMethod, preconditionTests = false) => ({ method, preconditionTests });
const status = (code: number, reason: string, message: string, causes: object[] = []): HttpAnswer => ({
  type: 'Response',
  status: code,
  retryAfter: null,
  body: JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message,
    reason,
    details: { causes },
    code,
  }),
});
const outcomeOf = (method: HttpMethod, answer: HttpAnswer, tests = false): string => {
  const verdict = classify(req(method, tests), answer);
  return verdict.type === 'Final' ? verdict.outcome : verdict.type;
};

describe('classify', () => {
  it('given a 201 with the created pod, then Applied with its uid and resourceVersion', () => {
    const answer: HttpAnswer = {
      type: 'Response',
      status: 201,
      retryAfter: null,
      body: '{"kind":"Pod","metadata":{"uid":"u1","resourceVersion":"5"}}',
    };
    assert.deepEqual(classify(req('POST'), answer), {
      type: 'Final',
      outcome: 'Applied',
      status: 201,
      reason: null,
      message: '',
      uid: 'u1',
      resourceVersion: '5',
    });
  });

  it('given a Create met by 409 AlreadyExists (a replay), then AlreadyDone', () => {
    assert.equal(outcomeOf('POST', status(409, 'AlreadyExists', 'pods "web-x" already exists')), 'AlreadyDone');
  });

  it('given a Delete met by 404, then AlreadyDone; a Patch met by 404, then Failed', () => {
    assert.equal(outcomeOf('DELETE', status(404, 'NotFound', 'pods "web-1" not found')), 'AlreadyDone');
    assert.equal(outcomeOf('PATCH', status(404, 'NotFound', 'nodes "n1" not found')), 'Failed');
  });

  it('given a Delete whose UID precondition failed (409), then Conflict with the apiserver message', () => {
    const verdict = classify(
      req('DELETE'),
      status(409, 'Conflict', 'the UID in the precondition (a) does not match the UID in record (b)'),
    );
    assert.equal(verdict.type === 'Final' && verdict.outcome, 'Conflict');
    assert.match(verdict.message, /UID in the precondition/);
  });

  it('given a stale resourceVersion on an update (409 Conflict), then Conflict', () => {
    assert.equal(outcomeOf('PUT', status(409, 'Conflict', 'the object has been modified')), 'Conflict');
  });

  it('given a patch whose uid precondition the apiserver calls immutable (422), then Conflict, not Failed', () => {
    const answer = status(422, 'Invalid', 'metadata.uid: field is immutable', [
      { reason: 'FieldValueInvalid', field: 'metadata.uid' },
    ]);
    assert.equal(outcomeOf('PATCH', answer), 'Conflict');
  });

  it('given a bare 422, then Conflict only when a json patch carried precondition tests', () => {
    const bare = status(422, 'Invalid', 'the server rejected our request due to an error in our request');
    assert.equal(outcomeOf('PATCH', bare, true), 'Conflict');
    assert.equal(outcomeOf('PATCH', bare, false), 'Failed');
  });

  it('given an invalid pod (422), a forbidden write (403) or a bad request (400), then Failed with the Status message', () => {
    const invalid = classify(
      req('POST'),
      status(422, 'Invalid', 'Pod "x" is invalid: spec.containers: Required value', [
        { reason: 'FieldValueRequired', field: 'spec.containers' },
      ]),
    );
    assert.deepEqual(
      [invalid.type === 'Final' && invalid.outcome, invalid.status, invalid.message],
      ['Failed', 422, 'Pod "x" is invalid: spec.containers: Required value'],
    );
    assert.equal(outcomeOf('POST', status(403, 'Forbidden', 'forbidden')), 'Failed');
    assert.equal(outcomeOf('PUT', status(400, 'BadRequest', 'bad')), 'Failed');
  });

  it('given a create into a terminating namespace, then Failed with reason NamespaceTerminating', () => {
    const verdict = classify(
      req('POST'),
      status(403, 'Forbidden', 'namespace x is being terminated', [
        { reason: 'NamespaceTerminating', field: 'metadata.namespace' },
      ]),
    );
    assert.deepEqual([verdict.type === 'Final' && verdict.outcome, verdict.reason], ['Failed', 'NamespaceTerminating']);
  });

  it('given 429, 408, 5xx or no answer at all, then Retryable; Retry-After is read in seconds', () => {
    for (const code of [429, 408, 500, 503, 504])
      assert.equal(outcomeOf('POST', status(code, 'x', 'y')), 'Retryable', String(code));
    assert.equal(outcomeOf('POST', { type: 'NoResponse', message: 'timeout' }), 'Retryable');
    const verdict = classify(req('POST'), {
      ...status(429, 'TooManyRequests', 'slow down'),
      retryAfter: '2',
    } as HttpAnswer);
    assert.equal(verdict.type === 'Retryable' && verdict.retryAfterMs, 2000);
  });

  it('given a body that is not JSON (a proxy page), then its text is the message', () => {
    const verdict = classify(req('POST'), {
      type: 'Response',
      status: 502,
      retryAfter: null,
      body: '<html>bad gateway</html>',
    });
    assert.equal(verdict.message, '<html>bad gateway</html>');
  });
});

describe('nextStep', () => {
  const retryable = {
    type: 'Retryable',
    status: 503,
    reason: null,
    message: 'unavailable',
    retryAfterMs: null,
  } as const;

  it('given a Retryable on the first attempt, then retry after the base delay plus jitter', () => {
    assert.deepEqual(
      nextStep(retryable, 1, DEFAULT_RETRY_POLICY, () => 0.5),
      { type: 'Retry', delayMs: 150, status: 503, message: 'unavailable' },
    );
  });

  it('given a Retry-After, then it is honoured instead of the backoff, up to the cap', () => {
    assert.equal(
      (nextStep({ ...retryable, retryAfterMs: 3000 }, 4, DEFAULT_RETRY_POLICY, () => 0) as { delayMs: number }).delayMs,
      3000,
    );
    assert.equal(
      (nextStep({ ...retryable, retryAfterMs: 3_600_000 }, 1, DEFAULT_RETRY_POLICY, () => 0) as { delayMs: number })
        .delayMs,
      30_000,
    );
  });

  it('given the last allowed attempt failed retryably, then Failed with the last answer', () => {
    const step = nextStep(retryable, DEFAULT_RETRY_POLICY.maxAttempts, DEFAULT_RETRY_POLICY, () => 0);
    assert.deepEqual(
      [step.type, step.type === 'Final' && step.outcome, step.status, step.message],
      ['Final', 'Failed', 503, 'gave up after 10 attempts: unavailable'],
    );
  });
});

describe('backoffDelay and retryAfterMs', () => {
  it('given growing attempts, then delays double from 100 ms and stop at 30 s, jitter included', () => {
    const delayOf = (attempt: number, random: () => number): number =>
      backoffDelay(DEFAULT_RETRY_POLICY, attempt - 1, random);
    assert.deepEqual(
      [1, 2, 3, 9, 10, 60, 5000].map((a) => delayOf(a, () => 0)),
      [100, 200, 400, 25_600, 30_000, 30_000, 30_000],
    );
    assert.equal(
      delayOf(9, () => 0.99),
      30_000,
    );
    assert.equal(
      delayOf(2, () => 0.25),
      250,
    );
  });

  it('given Retry-After headers, then only whole seconds count', () => {
    assert.deepEqual(['1', ' 5 ', 'Wed, 21 Oct 2026 07:28:00 GMT', '1.5', null].map(retryAfterMs), [
      1000,
      5000,
      null,
      null,
      null,
    ]);
  });
});

describe('resultOf and refusedResult', () => {
  it('given a final verdict, then the result repeats the mutation id, verb and target with the answer', () => {
    const verdict = {
      type: 'Final',
      outcome: 'Applied',
      status: 200,
      reason: null,
      message: '',
      uid: 'u',
      resourceVersion: '9',
    } as const;
    const result = resultOf(aMutation(), 'web-1', verdict, 2, '2026-11-22T14:00:01Z');
    assert.deepEqual(
      [result.mutationId, result.verb, result.target.name, result.outcome, result.attempts, result.uid],
      ['m-1', 'Delete', 'web-1', 'Applied', 2, 'u'],
    );
  });

  it("given a refused mutation, then status 0, no attempts, the reason says why and the name is the target's", () => {
    const result = refusedResult(aMutation(), 'NotAllowed', 'no', '2026-11-22T14:00:01Z');
    assert.deepEqual(
      [result.outcome, result.status, result.attempts, result.reason, result.name],
      ['Refused', 0, 0, 'NotAllowed', aMutation().target.name],
    );
  });

  it('given a refused generateName Create, then the name is the one the writer would have derived (the owner stops expecting it)', () => {
    const create = aMutation({
      verb: 'Create',
      target: { ...aMutation().target, name: '' },
      body: JSON.stringify({ metadata: { generateName: 'web-' } }),
    });
    assert.equal(refusedResult(create, 'NotAllowed', 'no', '2026-11-22T14:00:01Z').name, generatedName('web-', 'm-1'));
  });

  it('given a refused event, then there is no name (the correlator names events)', () => {
    assert.equal(
      refusedResult(aMutation({ verb: 'RecordEvent' }), 'EventSpamFiltered', 'no', '2026-11-22T14:00:01Z').name,
      null,
    );
  });

  it('given an apiserver message of 1 MB, then the result carries its first 4096 characters', () => {
    const verdict = {
      type: 'Final',
      outcome: 'Failed',
      status: 422,
      reason: 'Invalid',
      message: 'y'.repeat(1_000_000),
      uid: null,
      resourceVersion: null,
    } as const;
    const message = resultOf(aMutation(), 'web-1', verdict, 1, '2026-11-22T14:00:01Z').message;
    assert.deepEqual([message.length, message.endsWith(' ...')], [4096, true]);
  });
});
