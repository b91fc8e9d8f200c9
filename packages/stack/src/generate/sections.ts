/*
 * Sections: the generated lines of a file that is otherwise written by hand. A section is what lies between a line
 * `# BEGIN generated <name>: npm run generate` and the line `# END generated <name>` at the same indentation: the
 * generator owns those lines, a person the rest. The markers are comments in YAML and in Dockerfiles alike, so a file
 * stays valid as it is checked in, and a section's lines take the indentation of its markers.
 */

const SECTION = /^([ \t]*)# BEGIN generated ([a-z0-9-]+): npm run generate\n(?:.*\n)*?\1# END generated \2$/gm;
const BEGIN = /^[ \t]*# BEGIN generated ([a-z0-9-]+)/gm;

const begin = (name: string): string => `# BEGIN generated ${name}: npm run generate`;

/** Sections are the lines of each section of a file, by name, unindented. */
export type Sections = Readonly<Record<string, readonly string[]>>;

/**
 * withSections is text with the lines of each section replaced by the given ones. It fails, naming the file, when the
 * text lacks a section it is given, has one it is not given or one not closed, so no generated line goes unowned.
 */
export function withSections(file: string, text: string, sections: Sections): string {
  const found = [...text.matchAll(BEGIN)].map((m) => m[1]!);
  const replaced = new Set<string>();
  const out = text.replace(SECTION, (_, indent: string, name: string) => {
    const lines = sections[name];
    if (lines === undefined) throw new Error(`${file}: the generator has no section ${name}: remove its markers`);
    replaced.add(name);
    const body = lines.map((l) => (l === '' ? '\n' : `${indent}${l}\n`)).join('');
    return `${indent}${begin(name)}\n${body}${indent}# END generated ${name}`;
  });
  const wrong = found.find((name, i) => !replaced.has(name) || found.indexOf(name) !== i);
  if (wrong !== undefined)
    throw new Error(`${file}: section ${wrong} is not one BEGIN line and one END line at its indentation`);
  const missing = Object.keys(sections).filter((name) => !replaced.has(name));
  if (missing.length > 0)
    throw new Error(
      `${file} lacks section ${missing[0]}: put \`${begin(missing[0]!)}\` and its END line where it goes`,
    );
  return out;
}
