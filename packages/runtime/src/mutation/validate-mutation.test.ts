import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aCreate, aMutation, aRecordEvent, podTarget } from './mutation.fixture.ts';
import { isMutationError, validateMutation } from './validate-mutation.ts';

/** errorOf validates a value and returns its error text, failing the test when it was accepted. */
function errorOf(value: unknown): string {
  const result = validateMutation(value);
  assert.ok(isMutationError(result), 'expected the value to be refused');
  return result.error;
}

describe('validateMutation: shape', () => {
  it('given a complete Delete, then it is returned as is', () => {
    assert.deepEqual(validateMutation(aMutation()), aMutation());
  });

  it('given optional parts absent rather than null, then they read as null', () => {
    const { body: _b, patch: _p, patchType: _t, fieldManager: _f, event: _e, ...rest } = aMutation();
    assert.deepEqual(validateMutation(rest), aMutation());
  });

  it('given something that is not a record, then the mutation itself is named', () => {
    assert.equal(errorOf('x'), 'mutation: not a record (string)');
  });

  it('given a missing target name part, then its path is named', () => {
    const { resource: _r, ...target } = podTarget;
    assert.equal(errorOf({ ...aMutation(), target }), 'target.resource: missing');
  });

  it('given an unknown verb (a newer producer), then the verb and the known ones are named', () => {
    assert.match(errorOf({ ...aMutation(), verb: 'Evict' }), /^verb: "Evict" is not one of Create, Update/);
  });

  it('given a cause with a negative offset, then that cause is named', () => {
    assert.equal(
      errorOf({ ...aMutation(), cause: [{ topic: 't', partition: 0, offset: -1 }] }),
      'cause[0].offset: not a non-negative integer (-1)',
    );
  });

  it('given a createdAt that is not RFC 3339, then it is refused', () => {
    assert.match(errorOf({ ...aMutation(), createdAt: '22/11/2026' }), /^createdAt: not RFC 3339/);
  });
});

describe('validateMutation: per verb', () => {
  it('given a Delete without a UID precondition, then preconditions.uid is named', () => {
    assert.match(
      errorOf(aMutation({ preconditions: { uid: null, resourceVersion: null } })),
      /^preconditions\.uid: missing/,
    );
  });

  it("given a PopulateToken, then it carries the Secret's uid and resourceVersion and no value (body or patch)", () => {
    const populate = aMutation({ verb: 'PopulateToken', preconditions: { uid: 'u', resourceVersion: '7' } });
    assert.ok(!isMutationError(validateMutation(populate)));
    assert.match(errorOf({ ...populate, preconditions: { uid: 'u', resourceVersion: null } }), /^preconditions: /);
    assert.match(errorOf({ ...populate, body: '{"data":{"token":"x"}}' }), /^body: a PopulateToken carries no object/);
  });

  it('given a DeleteNamespaceContent, then it names a namespace by its uid and carries nothing else', () => {
    const target = {
      apiVersion: 'v1',
      kind: 'Namespace',
      namespace: null,
      name: 'doomed',
      resource: 'namespaces',
      subresource: null,
    };
    const pass = aMutation({
      verb: 'DeleteNamespaceContent',
      target,
      preconditions: { uid: 'u', resourceVersion: null },
    });
    assert.ok(!isMutationError(validateMutation(pass)));
    assert.match(errorOf({ ...pass, preconditions: { uid: null, resourceVersion: null } }), /^preconditions\.uid: /);
    assert.match(errorOf({ ...pass, target: { ...target, resource: 'secrets' } }), /^target: /);
    assert.match(errorOf({ ...pass, target: { ...target, namespace: 'kube-system' } }), /^target: /);
    assert.match(errorOf({ ...pass, body: '{"metadata":{}}' }), /^body: /);
    const finalize = { ...pass, verb: 'FinalizeNamespace' as const, target: { ...target, subresource: 'finalize' } };
    assert.ok(!isMutationError(validateMutation(finalize)));
    assert.match(errorOf({ ...finalize, target }), /^target\.subresource: a FinalizeNamespace writes finalize/);
  });

  it('given a Create with generateName only and no target name, then it is valid', () => {
    assert.equal(isMutationError(validateMutation(aCreate())), false);
  });

  it('given a Create whose body has neither name nor generateName, then body.metadata.name is named', () => {
    const body = JSON.stringify({ metadata: {} });
    assert.match(errorOf(aCreate({ body })), /^body\.metadata\.name: missing/);
  });

  it('given a Create whose body is not JSON, then body is named', () => {
    assert.match(errorOf(aCreate({ body: '{' })), /^body: not JSON/);
  });

  it('given a Create whose target name differs from the body name, then the mismatch is named', () => {
    const body = JSON.stringify({ metadata: { name: 'web-2' } });
    assert.match(errorOf(aCreate({ body })), /^target\.name: "" differs/);
    assert.match(
      errorOf(aCreate({ body, target: podTarget })),
      /^target\.name: "web-1" differs from body\.metadata\.name "web-2"/,
    );
  });

  it('given an Update without any resourceVersion, then preconditions.resourceVersion is named', () => {
    const update = aMutation({ verb: 'Update', body: JSON.stringify({ metadata: { name: 'web-1' } }) });
    assert.match(errorOf(update), /^preconditions\.resourceVersion: missing/);
    const withRv = { ...update, body: JSON.stringify({ metadata: { name: 'web-1', resourceVersion: '9' } }) };
    assert.equal(isMutationError(validateMutation(withRv)), false);
  });

  it('given a Patch without patchType, or a json patch that is not an array, then the part is named', () => {
    assert.match(errorOf(aMutation({ verb: 'Patch', patch: '{}' })), /^patchType: missing/);
    assert.equal(
      errorOf(aMutation({ verb: 'Patch', patch: '{}', patchType: 'json' })),
      'patch: a json patch is an array of operations',
    );
  });

  it('given a RecordEvent without its event, then event is named', () => {
    assert.match(errorOf(aRecordEvent(undefined, { event: null })), /^event: missing/);
  });

  it('given a RecordEvent whose event has a bad type, then the event part is named', () => {
    const bad = { ...aRecordEvent(), event: { ...aRecordEvent().event, type: 'Error' } };
    assert.match(errorOf(bad), /^event\.type: "Error" is not one of Normal, Warning/);
  });
});

describe('validateMutation: nothing that passes can make a later step throw', () => {
  it('given a Delete or a Patch whose body is not a JSON object, then body is named', () => {
    assert.match(errorOf(aMutation({ body: 'not json' })), /^body: not JSON/);
    assert.match(errorOf(aMutation({ body: 'null' })), /^body: missing/);
    assert.match(errorOf(aMutation({ body: '[1]' })), /^body: not a record/);
    assert.match(errorOf(aMutation({ verb: 'Patch', patch: '{}', patchType: 'merge', body: '{' })), /^body: not JSON/);
  });

  it('given a Delete with DeleteOptions as its body, then it is valid', () => {
    assert.equal(
      isMutationError(validateMutation(aMutation({ body: JSON.stringify({ gracePeriodSeconds: 0 }) }))),
      false,
    );
  });

  it('given a name-like string longer than 1024 characters, then it is refused naming its length', () => {
    assert.equal(
      errorOf(aMutation({ controller: 'c'.repeat(5000) })),
      'controller: too long (5000 characters, at most 1024)',
    );
    assert.match(
      errorOf(aMutation({ target: { ...podTarget, namespace: 'n'.repeat(2000) } })),
      /^target\.namespace: too long/,
    );
  });

  it('given a long body or event message, then only the record size bounds them', () => {
    const body = JSON.stringify({ gracePeriodSeconds: 0, pad: 'x'.repeat(100_000) });
    assert.equal(isMutationError(validateMutation(aMutation({ body }))), false);
    const event = { ...aRecordEvent().event!, message: 'm'.repeat(100_000) };
    assert.equal(isMutationError(validateMutation(aRecordEvent(event))), false);
  });

  it('given a target name or namespace that is not a REST path segment, then it is refused', () => {
    assert.match(
      errorOf(aMutation({ target: { ...podTarget, name: '..' } })),
      /^target\.name: "\.\." may not be a name/,
    );
    assert.match(
      errorOf(aMutation({ target: { ...podTarget, namespace: 'a/b' } })),
      /^target\.namespace: "a\/b" may not contain/,
    );
  });

  it('given an empty target, then its first part is named', () => {
    assert.equal(errorOf({ ...aMutation(), target: {} }), 'target.name: missing');
  });
});
