import { EXPECTATIONS_FLAGS } from '../expectations/expectations.ts';
import type { FlagSpec } from '../service/flags.ts';
import type { Declared } from '../controller/catalog-declaration.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';

/**
 * controllerFlags are a controller service's flags: the common ones, the group's, expectations' when a controller
 * keeps them, each controller's workers, tick and own flags (a flag two controllers declare is declared once).
 */
export function controllerFlags(ds: readonly Declared[]): readonly FlagSpec[] {
  const service = ds[0]!.service;
  const flags: FlagSpec[] = [
    {
      name: 'consumer-group',
      type: 'string',
      default: `kcm-bus-${service}`,
      help:
        'Kafka consumer group of the replicas, which reads the inputs once for all ' +
        `their controllers${
          ds.some((d) => d.singleton)
            ? ` (a singleton's: <group>.<workqueue>, ${ds
                .filter((d) => d.singleton)
                .map((d) => d.workqueue)
                .join(', ')})`
            : ''
        }; another group reads the same inputs without taking partitions from this one.`,
    },
    {
      name: 'mutations-topic',
      type: 'string',
      default: MUTATION_TOPICS.mutations,
      help: "Topic the mutations go to (the writer's input); another topic keeps them from the API (a shadow run).",
    },
    ...(ds.some((d) => d.expectations)
      ? ([
          {
            name: 'redis-url',
            type: 'string',
            default: 'redis://127.0.0.1:17106',
            help: 'Redis holding the expectations (default: the local dev stack).',
          },
          {
            name: 'expectations-prefix',
            type: 'string',
            default: 'kcm-bus:exp',
            help: "Prefix of the expectations' Redis keys; every replica of a consumer group must use the same one.",
          },
          ...EXPECTATIONS_FLAGS,
        ] as const)
      : []),
    ...ds.flatMap((d) => [
      { name: d.workers.name, type: 'number', default: d.workers.default, help: d.workers.help } as const,
      ...(d.tick ? [{ name: d.tick.flag, type: 'duration', default: d.tick.default, help: d.tick.help } as const] : []),
      ...(d.flags ?? []),
    ]),
  ];
  return flags.filter((f, i) => flags.findIndex((g) => g.name === f.name) === i);
}
