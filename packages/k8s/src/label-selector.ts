import type { LabelSelector, LabelSelectorRequirement } from './apps-v1.ts';
import type { Labels, LabelsMatcher } from './labels.ts';

/** SelectorOrError is a compiled selector, or why the selector is not one (LabelSelectorAsSelector's error). */
export type SelectorOrError = { readonly matches: LabelsMatcher } | { readonly error: string };

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** labelKeyError mirrors validation.IsQualifiedName for a label key: [prefix/]name, name ≤ 63, prefix a DNS-1123 subdomain ≤ 253. */
function labelKeyError(key: string): string | undefined {
  const parts = key.split('/');
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0] ?? ''];
  if (parts.length > 2 || name === undefined || name.length === 0 || name.length > 63 || !NAME.test(name))
    return `invalid label key ${JSON.stringify(key)}`;
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)))
    return `invalid label key ${JSON.stringify(key)}: bad prefix`;
  return undefined;
}

/** requirementOf mirrors labels.NewRequirement's checks for one metav1 requirement, and compiles its test. */
function requirementOf(r: LabelSelectorRequirement): LabelsMatcher | string {
  const values = r.values ?? [];
  const keyError = labelKeyError(r.key);
  if (keyError !== undefined) return keyError;
  const badValue = values.find((v) => v.length > 63 || !VALUE.test(v));
  if (badValue !== undefined) return `invalid label value ${JSON.stringify(badValue)}`;
  const set = new Set(values);
  const has = (labels: Labels): boolean => labels?.[r.key] !== undefined;
  switch (r.operator) {
    case 'In':
      return values.length === 0
        ? "for 'in', 'notin' operators, values set can't be empty"
        : (l) => has(l) && set.has(l![r.key]!);
    case 'NotIn':
      return values.length === 0
        ? "for 'in', 'notin' operators, values set can't be empty"
        : (l) => !has(l) || !set.has(l![r.key]!);
    case 'Exists':
      return values.length > 0 ? 'values set must be empty for exists and does not exist' : has;
    case 'DoesNotExist':
      return values.length > 0 ? 'values set must be empty for exists and does not exist' : (l) => !has(l);
    default:
      return `${JSON.stringify(r.operator)} is not a valid label selector operator`;
  }
}

/**
 * labelSelectorMatcher mirrors metav1.LabelSelectorAsSelector: a nil selector matches nothing, an empty one
 * everything; matchLabels are Equals requirements and matchExpressions In, NotIn, Exists or DoesNotExist, all ANDed;
 * an unknown operator, a bad key or value, or values where none or some are wanted is an error.
 */
export function labelSelectorMatcher(selector: LabelSelector | null | undefined): SelectorOrError {
  if (selector == null) return { matches: () => false };
  const equals = Object.entries(selector.matchLabels ?? {}).map(([key, value]): LabelSelectorRequirement => ({
    key,
    operator: 'In',
    values: [value],
  }));
  const tests: LabelsMatcher[] = [];
  for (const r of [...equals, ...(selector.matchExpressions ?? [])]) {
    const test = requirementOf(r);
    if (typeof test === 'string') return { error: test };
    tests.push(test);
  }
  return { matches: (labels) => tests.every((t) => t(labels)) };
}
