import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { yamlDocuments, yamlLines, yamlText } from './yaml-text.ts';

describe("yamlText, yamlLines and yamlDocuments: YAML in deploy/'s style", () => {
  it("given a field's list of scalars, then it is on one line; lists of maps and maps stay blocks", () => {
    const value = { rules: [{ apiGroups: [''], verbs: ['list', 'watch'] }] };
    assert.equal(yamlText(value), 'rules:\n  - apiGroups: [""]\n    verbs: [list, watch]\n');
    assert.deepEqual(parse(yamlText(value)), value);
  });

  it('given a list, then its items are lines of a block list, which a section indents; an empty list is no line', () => {
    assert.deepEqual(yamlLines(['--a=1', { name: 'X', value: 'true' }]), ['- --a=1', '- name: X', '  value: "true"']);
    assert.deepEqual(yamlLines([]), []);
  });

  it('given documents with comments, then each comes after its comment lines, and they parse back as given', () => {
    const text = yamlDocuments([{ comment: ['one', 'two'], value: { a: 1 } }, { value: { b: [2] } }]);
    assert.equal(text, '# one\n# two\na: 1\n---\nb: [2]\n');
    assert.deepEqual(
      parseAllDocuments(text).map((d) => d.toJSON()),
      [{ a: 1 }, { b: [2] }],
    );
  });
});
