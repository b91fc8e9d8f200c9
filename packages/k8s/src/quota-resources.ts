/*
 * The resource-list helpers of k8s.io/apiserver pkg/quota/v1 (resources.go) on quantities, and the conversion of the
 * API's resource lists (name to quantity text) to and from them. Go ranges over maps in random order; these walk a
 * list in its key order (a's keys, then b's others).
 */
import { addQuantity, cmpQuantity, isZeroQuantity, negQuantity, subQuantity, type Quantity } from './quantity.ts';
import { quantityString } from './quantity-format.ts';
import { parseQuantity, readQuantity } from './quantity-parse.ts';

/** ResourceList is corev1.ResourceList: a quantity per resource name. */
export type ResourceList = Readonly<Record<string, Quantity>>;

/** ParsedResourceList is a resource list read from the API's JSON: its quantities, and the names that had none. */
export type ParsedResourceList = { readonly list: ResourceList; readonly malformed: readonly string[] };

const ZERO = parseQuantity('0');

/**
 * parseResourceList reads a resource list as the API writes it (each quantity a string, or a bare number:
 * readQuantity). Upstream's decoding would reject a list with a malformed quantity, or one too large for the
 * arithmetic; a record read from a topic is reported instead: such names are left out and listed.
 */
export function parseResourceList(record: Readonly<Record<string, unknown>>): ParsedResourceList {
  const entries: [string, Quantity][] = [];
  const malformed: string[] = [];
  for (const [name, written] of Object.entries(record)) {
    const q = readQuantity(written);
    if (q === undefined) malformed.push(name);
    else entries.push([name, q]);
  }
  return { list: Object.fromEntries(entries), malformed };
}

/** formatResourceList writes a resource list as the API carries it: each quantity's String. */
export function formatResourceList(list: ResourceList): Record<string, string> {
  return Object.fromEntries(Object.entries(list).map(([name, q]) => [name, quantityString(q)]));
}

/** get is a list's own entry for name (never an Object.prototype member). */
function get(list: ResourceList, name: string): Quantity | undefined {
  return Object.hasOwn(list, name) ? list[name] : undefined;
}

/** equals is Equals: the same names, with equal quantities. */
export function equals(a: ResourceList, b: ResourceList): boolean {
  const entries = Object.entries(a);
  if (entries.length !== Object.keys(b).length) return false;
  return entries.every(([name, q]) => {
    const other = get(b, name);
    return other !== undefined && cmpQuantity(q, other) === 0;
  });
}

/** lessThanOrEqual is LessThanOrEqual: whether a ≤ b for each of b's names a has; the names where a exceeds b. */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): readonly [boolean, readonly string[]] {
  const exceeded = Object.entries(b).flatMap(([name, limit]) => {
    const q = get(a, name);
    return q !== undefined && cmpQuantity(q, limit) > 0 ? [name] : [];
  });
  return [exceeded.length === 0, exceeded];
}

/** max is Max: for each name in a or b, the greater quantity (b's when equal). */
export function max(a: ResourceList, b: ResourceList): ResourceList {
  return merge(a, b, (q, other) => (cmpQuantity(q, other) <= 0 ? other : q));
}

/** add is Add: a + b for each name in a or b. */
export function add(a: ResourceList, b: ResourceList): ResourceList {
  return merge(a, b, addQuantity);
}

/** subtract is Subtract: a - b for each name in a or b (a name only b has is negated). */
export function subtract(a: ResourceList, b: ResourceList): ResourceList {
  return merge(a, b, subQuantity, negQuantity);
}

/** subtractWithNonNegativeResult is SubtractWithNonNegativeResult: a - b for each name, zero when not positive. */
export function subtractWithNonNegativeResult(a: ResourceList, b: ResourceList): ResourceList {
  const nonNegative = (q: Quantity): Quantity => (cmpQuantity(q, ZERO) > 0 ? q : ZERO);
  return merge(
    a,
    b,
    (q, other) => nonNegative(subQuantity(q, other)),
    () => ZERO,
    nonNegative,
  );
}

/**
 * merge builds a list of a's names, each both(a, b) where b has the name too and onlyA(a) otherwise, then b's other
 * names, each onlyB(b).
 */
function merge(
  a: ResourceList,
  b: ResourceList,
  both: (q: Quantity, other: Quantity) => Quantity,
  onlyB: (other: Quantity) => Quantity = (other) => other,
  onlyA: (q: Quantity) => Quantity = (q) => q,
): ResourceList {
  const entries = Object.entries(a).map(([name, q]): [string, Quantity] => {
    const other = get(b, name);
    return [name, other === undefined ? onlyA(q) : both(q, other)];
  });
  for (const [name, other] of Object.entries(b)) if (!Object.hasOwn(a, name)) entries.push([name, onlyB(other)]);
  return Object.fromEntries(entries);
}

/** mask is Mask: the entries of resources whose names are among names. */
export function mask(resources: ResourceList, names: readonly string[]): ResourceList {
  const keep = toSet(names);
  return Object.fromEntries(Object.entries(resources).filter(([name]) => keep.has(name)));
}

/** resourceNames is ResourceNames: the list's names. */
export function resourceNames(resources: ResourceList): string[] {
  return Object.keys(resources);
}

/** contains is Contains: whether item is among items. */
export function contains(items: readonly string[], item: string): boolean {
  return items.includes(item);
}

/** containsPrefix is ContainsPrefix: whether item starts with one of the prefixes. */
export function containsPrefix(prefixes: readonly string[], item: string): boolean {
  return prefixes.some((prefix) => item.startsWith(prefix));
}

/** intersection is Intersection: the names in both a and b, without duplicates, sorted (slices.Sort, byte order). */
export function intersection(a: readonly string[], b: readonly string[]): string[] {
  const other = toSet(b);
  return sortedUnique(a.filter((name) => other.has(name)));
}

/** difference is Difference: the names in a but not b, without duplicates, sorted (slices.Sort, byte order). */
export function difference(a: readonly string[], b: readonly string[]): string[] {
  const other = toSet(b);
  return sortedUnique(a.filter((name) => !other.has(name)));
}

/** sortedUnique sorts names as Go sorts strings (UTF-8 bytes, so code points), once each. */
function sortedUnique(names: readonly string[]): string[] {
  return [...toSet(names)].sort(compareCodePoints);
}

/** compareCodePoints orders strings by code point, as UTF-8 bytes compare. */
function compareCodePoints(x: string, y: string): number {
  const a = [...x].map((c) => c.codePointAt(0)!);
  const b = [...y].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** isZero is IsZero: whether every quantity is zero (an empty list is). */
export function isZero(a: ResourceList): boolean {
  return Object.values(a).every(isZeroQuantity);
}

/** isNegative is IsNegative: the names whose quantity is below zero. */
export function isNegative(a: ResourceList): string[] {
  return Object.entries(a).flatMap(([name, q]) => (q.mantissa < 0n ? [name] : []));
}

/** toSet is ToSet: the names as a set. */
export function toSet(names: readonly string[]): Set<string> {
  return new Set(names);
}
