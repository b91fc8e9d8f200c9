import { stateTopic, watchedKind } from '@kcm-bus/schemas/kinds.ts';
import type { ControllerEntry, ControllerPart, InputNamesOf, WorkqueueOf } from '../catalog/entry.ts';
import type { ControllerDeclaration, Input, Inputs } from './declaration.ts';

/** InputOptions are what only a controller's code says of its inputs, by input name: indexers, projection, fields. */
export type InputOptions<L extends Inputs> = { readonly [K in keyof L]?: Omit<Input<L[K]>, 'topic' | 'scope'> };

/** ControllerCode is what a controller part declares beside its catalog entry: its spec, tick, own flags and input options. */
export type ControllerCode<L extends Inputs> = Pick<
  ControllerDeclaration<L>,
  'spec' | 'tick' | 'flags' | 'retryBackoff' | 'fetchLingerMs'
> & { readonly inputs?: InputOptions<L> };

/**
 * Declared is a controller part's declaration whose input types are its own: what the runtime runs, listed with
 * others of other input types (a service's DECLARATIONS). `open` hands it, typed, to code generic in its inputs, so no
 * declaration is ever cast to another's type.
 */
export type Declared = Omit<ControllerDeclaration<Inputs>, 'inputs' | 'spec'> & {
  open<R>(use: <L extends Inputs>(declaration: ControllerDeclaration<L>) => R): R;
};

/** CatalogInputs are the input types a part may declare: one per input its catalog entry names, and no other. */
export type CatalogInputs<Names extends string, L> = { readonly [K in Names]: unknown } & {
  readonly [K in Exclude<keyof L, Names>]: never;
};

/**
 * declared is a controller part's declaration: the catalog entry says its service, name, workqueue, inputs (each a
 * watched kind's state topic, partitioned or global), workers flag, singleton and expectations; the code adds its
 * spec, tick, flags and per-input options. The entry's literal types check the rest at compile time: a workqueue
 * the entry lacks, options for an input it does not list, or input types named otherwise than its inputs do not
 * compile (catalog-declaration.types.test.ts). `declared(entry, workqueue)<Inputs>(code)`.
 */
export function declared<E extends ControllerEntry, W extends WorkqueueOf<E>>(entry: E, workqueue: W) {
  const part = entry.parts.find((p) => p.workqueue === workqueue);
  if (part === undefined) throw new Error(`${entry.name} has no part with workqueue ${JSON.stringify(workqueue)}`);
  return <L extends CatalogInputs<InputNamesOf<E, W>, L>>(code: ControllerCode<L>): Declared => {
    if (code.fetchLingerMs !== undefined && part.singleton !== true)
      throw new Error(
        `${entry.name}'s ${workqueue}: fetchLingerMs is a singleton's, whose group reads its inputs alone`,
      );
    const { inputs: options = {}, ...rest } = code;
    const declaration: ControllerDeclaration<L> = {
      ...rest,
      service: entry.service,
      name: entry.name,
      workqueue,
      inputs: inputsOf(part, options) as ControllerDeclaration<L>['inputs'],
      workers: part.workers,
      ...(part.singleton ? { singleton: true } : {}),
      ...(part.expectations ? { expectations: true } : {}),
    };
    return sealed(declaration);
  };
}

/** sealed hides a declaration's input types behind `open` (Declared), so declarations of different inputs list together. */
export function sealed<L extends Inputs>(declaration: ControllerDeclaration<L>): Declared {
  const { inputs: _inputs, spec: _spec, ...info } = declaration;
  return { ...info, open: (use) => use(declaration) };
}

function inputsOf(
  part: ControllerPart,
  options: Readonly<Record<string, object | undefined>>,
): Readonly<Record<string, Input<unknown>>> {
  return Object.fromEntries(
    Object.entries(part.inputs).map(([name, input]) => [
      name,
      { ...options[name], topic: stateTopic(watchedKind(input.kind)), scope: input.scope },
    ]),
  );
}
