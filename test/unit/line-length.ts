import ts from 'typescript';

/** MAX_LINE is the line length the formatter (prettier, .prettierrc.json) wraps code at. */
export const MAX_LINE = 120;

type Range = readonly [number, number];

/** unbreakable lists the ranges of a source that no formatter breaks: string, template and regexp literals, comments. */
function unbreakable(file: string, text: string): Range[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const ranges: Range[] = [];
  const comments = (r: ts.CommentRange[] | undefined): void => void r?.forEach((c) => ranges.push([c.pos, c.end]));
  const visit = (node: ts.Node): void => {
    comments(ts.getLeadingCommentRanges(text, node.pos));
    comments(ts.getTrailingCommentRanges(text, node.end));
    const literal =
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateExpression(node) ||
      ts.isRegularExpressionLiteral(node);
    if (literal) ranges.push([node.getStart(source), node.end]);
    else ts.forEachChild(node, visit);
  };
  visit(source);
  comments(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return ranges;
}

/**
 * longLines names the lines of a TypeScript source longer than MAX_LINE in code: a line may run past MAX_LINE only
 * by the literals and comments on it, which no formatter breaks (its code alone fits).
 */
export function longLines(file: string, text: string): number[] {
  const ranges = unbreakable(file, text);
  const found: number[] = [];
  let start = 0;
  text.split('\n').forEach((line, i) => {
    const end = start + line.length;
    const unbroken = ranges.reduce(
      (sum, [from, to]) => sum + Math.max(0, Math.min(to, end) - Math.max(from, start)),
      0,
    );
    if (line.length - unbroken > MAX_LINE) found.push(i + 1);
    start = end + 1;
  });
  return found;
}
