/*
 * Reading resource lists from objects as parsed JSON, and the resource-list helpers of component-helpers' resource
 * package (helpers.go) that quota-resources.ts does not have.
 */
import { cmpQuantity, value, type Quantity } from '@kcm-bus/k8s/quantity.ts';
import { add, parseResourceList, type ResourceList } from '@kcm-bus/k8s/quota-resources.ts';
import { record } from './json.ts';

/**
 * readList is the resource list a JSON object writes (parseResourceList), without its malformed quantities (upstream's
 * typed objects cannot hold one): each is reported in errors as `where: malformed quantity "name": "text"`.
 */
export function readList(json: unknown, where: string, errors: string[]): ResourceList {
  const written = record(json);
  const { list, malformed } = parseResourceList(written);
  for (const name of malformed)
    errors.push(`${where}: malformed quantity ${JSON.stringify(name)}: ${JSON.stringify(written[name])}`);
  return list;
}

/**
 * maxInto is maxResourceList (component-helpers resource/helpers.go): list with each of other's quantities that list
 * lacks or that is strictly greater (on a tie list's own stays, unlike quota.Max).
 */
export function maxInto(list: ResourceList, other: ResourceList): ResourceList {
  const out: Record<string, Quantity> = { ...list };
  for (const [name, q] of Object.entries(other)) {
    const mine = Object.hasOwn(out, name) ? out[name] : undefined;
    if (mine === undefined || cmpQuantity(q, mine) > 0) out[name] = q;
  }
  return out;
}

/** maxOf is helpers.go's max(a, b...): a copy of a, then maxInto each of the others. */
export function maxOf(a: ResourceList, ...others: readonly ResourceList[]): ResourceList {
  return others.reduce(maxInto, add({}, a));
}

/**
 * roundUpToUnits is getStorageUsage's roundUpFunc (Quantity.RoundUp(0)): q itself when it is a whole number, else the
 * value rounded up to units, without the cached string.
 */
export function roundUpToUnits(q: Quantity): Quantity {
  const units = value(q);
  const exact = cmpQuantity({ mantissa: units, scale: 0, format: q.format, infDec: q.infDec }, q) === 0;
  return exact ? q : { mantissa: units, scale: 0, format: q.format, infDec: q.infDec };
}
