/** Json is a decoded Kubernetes object or any part of it. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/**
 * DiffLine is one difference between two versions of an object, at a JSON path (`spec.replicas`,
 * `status.conditions[type=Ready].status`, `spec.finalizers[1]`: keyed lists by their merge key, others by index): changed (`~`, from and to), added (`+`, to) or removed (`-`, from). A whole subtree
 * added or removed is one line at its root.
 */
export type DiffLine =
  | { readonly op: '~'; readonly path: string; readonly from: Json; readonly to: Json }
  | { readonly op: '+'; readonly path: string; readonly to: Json }
  | { readonly op: '-'; readonly path: string; readonly from: Json };

/**
 * IGNORED_PATHS change on every write or are stripped by the watcher anyway: the record's own resourceVersion is
 * shown beside the diff, not in it.
 */
const IGNORED_PATHS: ReadonlySet<string> = new Set(['metadata.resourceVersion', 'metadata.managedFields']);

/** MAX_VALUE_TEXT is how much of a value a diff line shows before it is cut with an ellipsis. */
const MAX_VALUE_TEXT = 80;

/** diffObjects lists what changed from one version of an object to the next, in the order of the newer one's fields. */
export function diffObjects(before: Json | undefined, after: Json | undefined): DiffLine[] {
  const out: DiffLine[] = [];
  diffAt('', before ?? null, after ?? null, out);
  return out;
}

function diffAt(path: string, a: Json, b: Json, out: DiffLine[]): void {
  if (IGNORED_PATHS.has(path)) return;
  if (isObject(a) && isObject(b)) return diffEntries(a, b, out, (k) => (path === '' ? k : `${path}.${k}`));
  if (Array.isArray(a) && Array.isArray(b)) {
    const key = mergeKey(a, b);
    if (key !== undefined) return diffEntries(byField(a, key), byField(b, key), out, (v) => `${path}[${key}=${v}]`);
    return diffEntries(byIndex(a), byIndex(b), out, (i) => `${path}[${i}]`);
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ op: '~', path, from: a, to: b });
}

function diffEntries(
  a: { readonly [k: string]: Json },
  b: { readonly [k: string]: Json },
  out: DiffLine[],
  child: (key: string) => string,
): void {
  for (const [k, v] of Object.entries(b)) {
    const p = child(k);
    if (IGNORED_PATHS.has(p)) continue;
    if (!(k in a)) out.push({ op: '+', path: p, to: v });
    else diffAt(p, a[k] ?? null, v, out);
  }
  for (const [k, v] of Object.entries(a)) {
    if (!(k in b) && !IGNORED_PATHS.has(child(k))) out.push({ op: '-', path: child(k), from: v });
  }
}

function byIndex(items: readonly Json[]): { readonly [k: string]: Json } {
  return Object.fromEntries(items.map((v, i) => [String(i), v]));
}

/**
 * MERGE_KEYS are the fields Kubernetes lists are keyed by (their patchMergeKey: conditions by type, containers, ports
 * and volumes by name, addresses by ip), so that a reordered list diffs as what changed, not as every index.
 */
const MERGE_KEYS = ['type', 'name', 'ip'] as const;

/** mergeKey is the first MERGE_KEYS field every item of both lists has as a string, unique within each list. */
function mergeKey(a: readonly Json[], b: readonly Json[]): string | undefined {
  const keyed = (items: readonly Json[], k: string): boolean => {
    const values = items.map((v) => (isObject(v) && typeof v[k] === 'string' ? v[k] : undefined));
    return values.every((v) => v !== undefined) && new Set(values).size === values.length;
  };
  return a.length + b.length === 0 ? undefined : MERGE_KEYS.find((k) => keyed(a, k) && keyed(b, k));
}

function byField(items: readonly Json[], key: string): { readonly [k: string]: Json } {
  return Object.fromEntries(items.map((v) => [String((v as { readonly [k: string]: Json })[key]), v]));
}

function isObject(v: Json): v is { readonly [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** formatValue is a value as a diff line shows it: compact JSON, cut at MAX_VALUE_TEXT characters. */
export function formatValue(v: Json): string {
  const text = JSON.stringify(v) ?? 'null';
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT - 1)}…` : text;
}

/** formatDiffLine is a DiffLine as text: `~ spec.replicas: 7 → 3`, `+ metadata.labels.x: "y"`, `- status.conditions[1]`. */
export function formatDiffLine(d: DiffLine): string {
  if (d.op === '~') return `~ ${d.path}: ${formatValue(d.from)} → ${formatValue(d.to)}`;
  return d.op === '+' ? `+ ${d.path}: ${formatValue(d.to)}` : `- ${d.path}`;
}

/** at reads the value at a dotted path of an object (`spec.replicas`), undefined where any step is missing. */
export function at(object: Json | undefined, path: string): Json | undefined {
  let v: Json | undefined = object;
  for (const step of path.split('.')) v = v !== undefined && isObject(v) ? v[step] : undefined;
  return v;
}

/**
 * summarize is the first version of an object in one line: uid, labels, and the fields a reader of a controller
 * looks at first (replicas, node, phase, readiness), where present.
 */
export function summarize(object: Json | undefined): string {
  const labels = at(object, 'metadata.labels');
  const ready = isArrayOf(at(object, 'status.conditions')).find((c) => at(c, 'type') === 'Ready');
  const parts = [
    ['uid', at(object, 'metadata.uid')],
    [
      'labels',
      labels && isObject(labels)
        ? Object.entries(labels)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(',')
        : undefined,
    ],
    ['replicas', at(object, 'spec.replicas')],
    ['node', at(object, 'spec.nodeName')],
    ['phase', at(object, 'status.phase')],
    ['ready', at(ready, 'status')],
  ] as const;
  return parts
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

/** isArrayOf is v when it is an array, else empty. */
export function isArrayOf(v: Json | undefined): readonly Json[] {
  return Array.isArray(v) ? v : [];
}
