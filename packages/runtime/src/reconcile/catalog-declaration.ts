import { stateTopic, watchedKind } from '@kcm-bus/schemas/kinds.ts';
import { catalogEntry, type ControllerPart } from '../catalog/controllers.ts';
import type { ControllerDeclaration, Input, Inputs } from './declaration.ts';

/** InputOptions are what only a controller's code says of its inputs, by input name: indexers, projection, fields. */
export type InputOptions<L extends Inputs> = { readonly [K in keyof L]?: Omit<Input<L[K]>, 'topic' | 'scope'> };

/** ControllerCode is what a controller part declares beside its catalog entry: its spec, tick, own flags and input options. */
export type ControllerCode<L extends Inputs> = Pick<
  ControllerDeclaration<L>,
  'spec' | 'tick' | 'flags' | 'retryBackoff'
> & { readonly inputs?: InputOptions<L> };

/**
 * declared is a controller part's declaration: the catalog says its service, name, workqueue, inputs (each a watched
 * kind's state topic, partitioned or global), workers flag, singleton and expectations; the code adds its spec, tick,
 * flags and per-input options. Options for an input the catalog does not list fail at once, naming both.
 */
export function declared<L extends Inputs>(
  controller: string,
  workqueue: string,
  code: ControllerCode<L>,
): ControllerDeclaration<L> {
  const entry = catalogEntry(controller);
  const part = entry.parts.find((p) => p.workqueue === workqueue);
  if (part === undefined)
    throw new Error(
      `${controller} has no part with workqueue ${JSON.stringify(workqueue)} in the catalog (packages/runtime/src/catalog/controllers.ts)`,
    );
  const extra = Object.keys(code.inputs ?? {}).filter((name) => !(name in part.inputs));
  if (extra.length > 0)
    throw new Error(
      `${controller}/${workqueue} gives options for inputs the catalog does not list: ${extra.join(', ')}`,
    );
  const { inputs: options = {}, ...rest } = code;
  return {
    ...rest,
    service: entry.service,
    name: entry.name,
    workqueue,
    inputs: inputsOf(part, options) as ControllerDeclaration<L>['inputs'],
    workers: part.workers,
    ...(part.singleton ? { singleton: true } : {}),
    ...(part.expectations ? { expectations: true } : {}),
  };
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
