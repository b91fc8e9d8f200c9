import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withSections } from './sections.ts';

const FILE = [
  'args:',
  '  # BEGIN generated flags: npm run generate',
  '  - --stale=1',
  '  # END generated flags',
  '  - --by-hand=2',
  '',
].join('\n');

describe('withSections: the generated lines of a hand-written file', () => {
  it("given a section, then its lines are replaced by the generator's, indented as its markers; the rest is kept", () => {
    assert.equal(
      withSections('f.yaml', FILE, { flags: ['- --a=1', '- --b=2'] }),
      [
        'args:',
        '  # BEGIN generated flags: npm run generate',
        '  - --a=1',
        '  - --b=2',
        '  # END generated flags',
        '  - --by-hand=2',
        '',
      ].join('\n'),
    );
  });

  it('given no lines for a section, then it is left empty, its markers saying where the lines would go', () => {
    assert.equal(
      withSections('f.yaml', FILE, { flags: [] }),
      'args:\n  # BEGIN generated flags: npm run generate\n  # END generated flags\n  - --by-hand=2\n',
    );
  });

  it('given the output again, then nothing changes (generating is idempotent)', () => {
    const once = withSections('f.yaml', FILE, { flags: ['- --a=1'] });
    assert.equal(withSections('f.yaml', once, { flags: ['- --a=1'] }), once);
  });

  it('given a section the file lacks, then it fails naming the file, the section and the line to add', () => {
    assert.throws(
      () => withSections('f.yaml', FILE, { flags: [], volumes: [] }),
      /^Error: f\.yaml lacks section volumes: put `# BEGIN generated volumes: npm run generate`/,
    );
  });

  it('given a section the generator does not know, then it fails: no generated line is left without an owner', () => {
    assert.throws(() => withSections('f.yaml', FILE, {}), /^Error: f\.yaml: the generator has no section flags/);
  });

  it('given a section without its END line, at another indentation or twice, then it fails naming it', () => {
    const unclosed = FILE.replace('  # END generated flags\n', '');
    const misindented = FILE.replace('  # END', '# END');
    for (const text of [unclosed, misindented, `${FILE}${FILE}`])
      assert.throws(
        () => withSections('f.yaml', text, { flags: [] }),
        /^Error: f\.yaml: section flags is not one BEGIN/,
      );
  });
});
