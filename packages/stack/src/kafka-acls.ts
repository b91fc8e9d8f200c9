import type { KafkaAcl, KafkaAclOperation } from '@kcm-bus/runtime/bus/index.ts';
import { inputKindsOf, RECONCILER_SERVICES } from '@kcm-bus/catalog/controllers.ts';
import { WATCHER_EPOCHS_TOPIC } from '@kcm-bus/schemas/watch-record.ts';

/** SERVICES are the kcm-bus services, each its own Kafka principal (User:<service>) on the secure listener. */
export const SERVICES = ['watcher', 'writer', ...RECONCILER_SERVICES] as const;
export type ServiceName = (typeof SERVICES)[number];

const MUTATIONS = 'kcm.mutations';
const RESULTS = 'kcm.mutation-results';
/** OWN are the operations on a topic a service creates and configures (ensureTopics: list, create, alter configs). */
const OWN: readonly KafkaAclOperation[] = ['CREATE', 'DESCRIBE', 'DESCRIBE_CONFIGS', 'ALTER_CONFIGS'];
const READS: readonly KafkaAclOperation[] = ['READ', 'DESCRIBE'];

type Grant = {
  readonly type: KafkaAcl['resourceType'];
  readonly name: string;
  readonly prefixed?: boolean;
  readonly operations: readonly KafkaAclOperation[];
};

const topic = (name: string, operations: readonly KafkaAclOperation[], prefixed = false): Grant => ({
  type: 'TOPIC',
  name,
  prefixed,
  operations,
});
/** readBack is every service's right to its ephemeral read-to-the-end groups (readRange's `kcm-bus-read-<uuid>`). */
const readBack: Grant = {
  type: 'GROUP',
  name: 'kcm-bus-read-',
  prefixed: true,
  operations: ['READ', 'DESCRIBE', 'DELETE'],
};

/**
 * grantsOf is what one service may do on the bus, and nothing more: only the watcher writes watch and state
 * topics (and its epoch claims), only reconcilers write kcm.mutations, only the writer writes kcm.mutation-results.
 * Reading is granted where the service's loops read (the watcher reads its topics back on restart; a reconciler reads
 * the state and history topics of its controllers' inputs, from the catalog, and the results of its own mutations), creating and
 * configuring where the service creates the topic.
 */
function grantsOf(service: ServiceName): readonly Grant[] {
  if (service === 'watcher') {
    return [
      topic('kcm.watch.', [...OWN, 'WRITE', 'READ'], true),
      topic('kcm.state.', [...OWN, 'WRITE', 'READ'], true),
      topic(WATCHER_EPOCHS_TOPIC, [...OWN, 'WRITE']),
      { type: 'TRANSACTIONAL_ID', name: 'kcm-bus-watcher-', prefixed: true, operations: ['WRITE', 'DESCRIBE'] },
      readBack,
    ];
  }
  if (service === 'writer') {
    return [
      topic(MUTATIONS, [...OWN, 'READ']),
      topic(RESULTS, [...OWN, 'WRITE']),
      topic(`${MUTATIONS}.dlq`, [...OWN, 'WRITE']),
      { type: 'GROUP', name: 'kcm-bus-writer', operations: READS },
      readBack,
    ];
  }
  const inputs = inputKindsOf(service).flatMap((plural) => [`kcm.state.${plural}`, `kcm.watch.${plural}`]);
  return [
    ...inputs.map((t) => topic(t, READS)),
    ...[...inputs, RESULTS].map((t) => topic(`${t}.dlq`, [...OWN, 'WRITE'])),
    topic(MUTATIONS, ['WRITE', 'DESCRIBE']),
    topic(RESULTS, ['READ', 'CREATE', 'DESCRIBE']),
    topic(`kcm.active.kcm-bus-${service}`, [...OWN, 'READ'], true),
    { type: 'GROUP', name: `kcm-bus-${service}`, prefixed: true, operations: [...READS, 'DELETE'] },
    readBack,
  ];
}

/** serviceAcls are the ALLOW entries of every service's principal, for the broker's StandardAuthorizer. */
export function serviceAcls(): KafkaAcl[] {
  return SERVICES.flatMap((service) =>
    grantsOf(service).flatMap((g) =>
      g.operations.map((operation): KafkaAcl => ({
        principal: `User:${service}`,
        resourceType: g.type,
        resourceName: g.name,
        prefixed: g.prefixed ?? false,
        operation,
      })),
    ),
  );
}
