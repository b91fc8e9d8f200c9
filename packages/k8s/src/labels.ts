/** Labels is a label set as the API serves it (absent, null or a map). */
export type Labels = Readonly<Record<string, string>> | null | undefined;

/**
 * selectorMatches is labels.Set(selector).AsSelectorPreValidated().Matches(labels) for an equality-map selector:
 * every selector pair is in the labels. A nil or empty selector matches nothing (GetPodControllers: "it should
 * match nothing, not everything"); the apiserver never serves one, as it defaults the selector to the template
 * labels.
 */
export function selectorMatches(selector: Labels, labels: Labels): boolean {
  const pairs = Object.entries(selector ?? {});
  return pairs.length > 0 && isSubset(pairs, labels);
}

/**
 * labelsSuperset is true when labels carry every pair of want; an empty want matches everything (calculateStatus's
 * template-label count uses the same AsSelectorPreValidated, where an empty set is labels.Everything()).
 */
export function labelsSuperset(want: Labels, labels: Labels): boolean {
  return isSubset(Object.entries(want ?? {}), labels);
}

/** labelsEqual is reflect.DeepEqual on two label maps, absent and empty being the same. */
export function labelsEqual(a: Labels, b: Labels): boolean {
  const ea = Object.entries(a ?? {});
  return ea.length === Object.keys(b ?? {}).length && isSubset(ea, b);
}

function isSubset(pairs: readonly (readonly [string, string])[], labels: Labels): boolean {
  return pairs.every(([k, v]) => labels?.[k] === v);
}
