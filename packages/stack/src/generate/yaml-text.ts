import { Document, isPair, isScalar, visit } from 'yaml';

/**
 * yamlText is a value as YAML in the style of deploy/'s manifests: block collections, but a list of scalars that is a
 * field's value on one line (`verbs: [list, watch]`); no line is folded.
 */
export function yamlText(value: unknown): string {
  const doc = new Document(value);
  visit(doc, {
    Seq(_, node, path) {
      if (isPair(path.at(-1)) && node.items.every(isScalar)) node.flow = true;
    },
  });
  return doc.toString({ flowCollectionPadding: false, lineWidth: 0 });
}

/** yamlLines are a list's items as YAML lines (none for an empty list), for a section of a YAML file. */
export function yamlLines(items: readonly unknown[]): readonly string[] {
  return items.length === 0 ? [] : yamlText(items).trimEnd().split('\n');
}

/** yamlComment is lines as YAML comment lines (`# ` before each). */
export function yamlComment(lines: readonly string[]): string {
  return lines.map((l) => `# ${l}\n`).join('');
}

/** yamlDocuments are documents as one YAML stream, each after its comment lines (`# ` added), `---` between them. */
export function yamlDocuments(
  documents: readonly { readonly comment?: readonly string[]; readonly value: object }[],
): string {
  return documents.map(({ comment = [], value }) => `${yamlComment(comment)}${yamlText(value)}`).join('---\n');
}
