import { pathOf, ValueShapeError } from './avro-value.ts';

/** AvroEncodeError lists where a value does not fit the schema (e.g. `object.spec.replicas`), each misfit its cause. */
export class AvroEncodeError extends Error {
  readonly paths: readonly string[];
  constructor(schemaName: string, misfits: readonly ValueShapeError[]) {
    const paths = misfits.map((misfit) => misfit.path);
    super(`value does not fit ${schemaName}: ${misfits.map((misfit) => misfit.message).join('; ')}`, {
      cause: misfits[0],
    });
    this.paths = paths;
  }
}

/**
 * EncodeState is what a generated encoder (compile-encoder.ts) collects about one value besides its bytes, on its
 * slow paths only: the fields the schema has no place for and the misfits. A place is known to the generated code as
 * a stack of path segments (`object`, `parts[]`) and the segment of the field at hand; the path is only joined here,
 * when there is something to report.
 */
export class EncodeState {
  /** unknownPaths are the paths of the fields the schema lacks, in the order a walk of the value meets them, once. */
  readonly unknownPaths: string[] = [];
  readonly misfits: ValueShapeError[] = [];
  readonly #seen = new Set<string>();

  /** reset forgets the last value's findings. */
  reset(): void {
    this.unknownPaths.length = 0;
    this.misfits.length = 0;
    this.#seen.clear();
  }

  /** misfit notes a value that does not have the shape of its place; encoding goes on, to find every other misfit. */
  misfit(stack: readonly string[], depth: number, segment: string, expected: string, value: unknown): void {
    this.misfits.push(new ValueShapeError(pathOf(stack, depth, segment), expected, value));
  }

  /**
   * unknown notes the keys of a record's object that its schema does not know, at `at`: the number of paths noted
   * when the record was entered, so that a record's own unknown fields come before those of its fields.
   */
  unknown(object: object, known: ReadonlySet<string>, stack: readonly string[], depth: number, at: number): void {
    const found: string[] = [];
    for (const key of Object.keys(object)) {
      const path = pathOf(stack, depth, key);
      if (known.has(key) || this.#seen.has(path)) continue;
      found.push(path);
      this.#seen.add(path);
    }
    this.unknownPaths.splice(at, 0, ...found);
  }

  /** jsonText is a free-form value as JSON text ('' after noting a misfit, for a value JSON cannot hold). */
  jsonText(value: unknown, stack: readonly string[], depth: number, segment: string): string {
    try {
      const text = JSON.stringify(value) as string | undefined;
      if (text !== undefined) return text;
    } catch {
      // a cycle or a BigInt: noted below like an undefined
    }
    this.misfit(stack, depth, segment, 'a JSON value', value);
    return '';
  }
}
