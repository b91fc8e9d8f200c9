/**
 * GeneratedCode is the source of the functions a compiler (compile-encoder.ts, compile-decoder.ts) generates for one
 * schema, and the one place it becomes code (`new Function`). Why generate code: a converter of closures visits
 * every field a schema has at every value and builds an object of all of them; code generated once per schema goes
 * from a JSON object to bytes and back in straight lines, each record a function that the JIT compiles and inlines
 * like hand-written code, so a value costs what it has.
 *
 * Why it is safe: no data ever reaches a compiler, only schemas, and of a schema only three kinds of text reach the
 * source: identifiers the compilers number themselves (`f3`, `a12`), integers they compute (union indexes, byte
 * sizes), and strings written through `literal` (field names, paths), which JSON.stringify writes as a double-quoted
 * string literal with every quote, backslash, control character and lone surrogate escaped (U+2028 and U+2029 are
 * legal in string literals since ES2019), so a name cannot end its literal. Anything else a function needs (enum
 * symbols, sets of names, messages) is passed as a constant (`C[i]`), never written into the source.
 */
export class GeneratedCode {
  readonly #functions: string[] = [];
  readonly #names = new Map<string, string>();
  readonly #constants: unknown[] = [];
  #count = 0;

  /**
   * functionFor names the function generated for `key` (a named type, or a pair of them), generating its source
   * with `generate(name)` on first use; the name is taken before the body is generated, so a recursive type calls
   * itself.
   */
  functionFor(key: string, generate: (name: string) => string): string {
    let name = this.#names.get(key);
    if (name === undefined) {
      this.#names.set(key, (name = this.local('f')));
      this.#functions.push(generate(name));
    }
    return name;
  }

  /** declare adds a declaration the functions share (a variable of the module). */
  declare(source: string): void {
    this.#functions.push(source);
  }

  /** constant passes a value to the generated code without writing it into the source: an expression for it. */
  constant(value: unknown): string {
    return `C[${this.#constants.push(value) - 1}]`;
  }

  /** local is a fresh identifier, unique in the module (a prefix of our own and a number). */
  local(prefix: 'a' | 'b' | 'f' | 'i' | 'k' | 'n' | 'v' | 'x'): string {
    return `${prefix}${this.#count++}`;
  }

  /**
   * compile turns the functions into code: `params` are the runtime objects they use (by our own names), and the
   * module returns `entry`, the source of an expression (a function).
   */
  compile<T>(params: Readonly<Record<string, unknown>>, entry: string): T {
    const names = Object.keys(params);
    const source = `"use strict";\n${this.#functions.join('\n')}\nreturn ${entry};`;
    const module = new Function('C', ...names, source) as (...args: unknown[]) => T;
    return module(this.#constants, ...names.map((name) => params[name]));
  }
}

/** literal writes a string from a schema (a field name, a path) as a JavaScript string literal (safe: see above). */
export function literal(text: string): string {
  return JSON.stringify(text);
}
