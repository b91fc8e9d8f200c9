/** Labels is a label set as the API serves it (absent, null or a map). */
export type Labels = Readonly<Record<string, string>> | null | undefined;

/** LabelsMatcher tests label sets against a selector whose pairs were taken out once (one sync tests many pods). */
export type LabelsMatcher = (labels: Labels) => boolean;

/**
 * selectorMatcher compiles labels.Set(selector).AsSelectorPreValidated() for an equality-map selector: a label set
 * matches when it carries every selector pair. A nil or empty selector matches nothing (GetPodControllers: "it
 * should match nothing, not everything"); the apiserver never serves one, as it defaults the selector to the
 * template labels.
 */
export function selectorMatcher(selector: Labels): LabelsMatcher {
  const pairs = Object.entries(selector ?? {});
  return pairs.length === 0 ? () => false : (labels) => isSubset(pairs, labels);
}

/**
 * supersetMatcher compiles the test that labels carry every pair of want; an empty want matches everything
 * (calculateStatus's template-label count uses the same AsSelectorPreValidated, where an empty set is
 * labels.Everything()).
 */
export function supersetMatcher(want: Labels): LabelsMatcher {
  const pairs = Object.entries(want ?? {});
  return (labels) => isSubset(pairs, labels);
}

/** selectorMatches is selectorMatcher(selector)(labels), for a single test. */
export function selectorMatches(selector: Labels, labels: Labels): boolean {
  return selectorMatcher(selector)(labels);
}

/** labelsSuperset is supersetMatcher(want)(labels), for a single test. */
export function labelsSuperset(want: Labels, labels: Labels): boolean {
  return supersetMatcher(want)(labels);
}

/** labelsEqual is reflect.DeepEqual on two label maps, absent and empty being the same. */
export function labelsEqual(a: Labels, b: Labels): boolean {
  const ea = Object.entries(a ?? {});
  return ea.length === Object.keys(b ?? {}).length && isSubset(ea, b);
}

function isSubset(pairs: readonly (readonly [string, string])[], labels: Labels): boolean {
  for (const [k, v] of pairs) if (labels?.[k] !== v) return false;
  return true;
}
