import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { RECORD_LIMIT_CONFIG, STATE_TOPIC_CONFIGS, TOPIC_MAX_MESSAGE_BYTES } from '@kcm-bus/runtime/bus/index.ts';
import { Store } from '@kcm-bus/runtime/store/index.ts';
import { stateTopic, watchTopic, WATCHED_KINDS } from '@kcm-bus/schemas/kinds.ts';
import { MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import { busFlags, rawKube, testStack, uniqueName } from '../support/stack.ts';
import { startService, stopAllServices } from '@kcm-bus/harness/processes.ts';
import { readTopic, type TopicRecord } from '@kcm-bus/harness/topic.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

const stack = testStack();
const kube = rawKube();
const bus = kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-test-topics' });
const AUDIT_WINDOW_SECONDS = 3600;

/** replayed is what a runtime Store holds after replaying a topic's records from the beginning: key → resourceVersion. */
function replayed(records: readonly TopicRecord[]): Map<string, string> {
  const store = new Store<{ readonly key: string; readonly resourceVersion: string }>();
  for (const r of records) {
    if (r.value === null || r.value.type === 'Watermark') continue;
    if (r.value.type === 'Deleted') store.apply({ type: 'Deleted', key: r.key });
    else store.apply({ type: 'Applied', key: r.key, object: { key: r.key, resourceVersion: r.value.resourceVersion } });
  }
  return new Map(
    store
      .lister()
      .list()
      .map((o) => [o.key, o.resourceVersion]),
  );
}

describe('history and state topics', () => {
  before(async () => {
    await startService('watcher', [
      ...busFlags(stack),
      '--kubeconfig',
      stack.kubeconfigs.watcher,
      '--partitions',
      '3',
      '--audit-window-seconds',
      String(AUDIT_WINDOW_SECONDS),
    ]);
    await startService('writer', [...busFlags(stack), '--kubeconfig', stack.kubeconfigs.writer, '--partitions', '3']);
  });
  after(stopAllServices);

  it('given the services are up, then every topic has its policy: history kept for the audit window, state compacted eagerly, commands and results kept a week', async () => {
    for (const kind of WATCHED_KINDS) {
      const history = await bus.topicConfigs(watchTopic(kind));
      assert.equal(history['cleanup.policy'], 'delete', watchTopic(kind));
      assert.equal(history['retention.ms'], String(AUDIT_WINDOW_SECONDS * 1000), watchTopic(kind));
      assert.equal(history['max.message.bytes'], String(TOPIC_MAX_MESSAGE_BYTES), watchTopic(kind));
      const state = await bus.topicConfigs(stateTopic(kind));
      for (const [name, value] of Object.entries(STATE_TOPIC_CONFIGS))
        assert.equal(state[name], value, `${stateTopic(kind)} ${name}`);
    }
    for (const topic of Object.values(MUTATION_TOPICS)) {
      const configs = await bus.topicConfigs(topic);
      assert.deepEqual(
        [configs['cleanup.policy'], configs['retention.ms'], configs['max.message.bytes']],
        ['delete', String(7 * 86_400_000), String(TOPIC_MAX_MESSAGE_BYTES)],
        topic,
      );
    }
  });

  it('given objects created, changed and deleted, then replaying the state topic gives the same store as replaying the history, deletes included', async () => {
    const ns = uniqueName('topics');
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    for (let i = 0; i < 6; i++)
      await kube('POST', `/api/v1/namespaces/${ns}/services`, {
        metadata: { name: `s${i}` },
        spec: { ports: [{ port: 80 + i }] },
      });
    for (let i = 0; i < 6; i++) {
      const path = `/api/v1/namespaces/${ns}/services/s${i}`;
      const current = await kube('GET', path);
      await kube('PUT', path, { ...current, metadata: { ...(current['metadata'] as object), labels: { step: '2' } } });
    }
    for (let i = 0; i < 3; i++) await kube('DELETE', `/api/v1/namespaces/${ns}/services/s${i}`);
    const mine = (records: readonly TopicRecord[]): TopicRecord[] => records.filter((r) => r.key.startsWith(`${ns}/`));
    // The history keeps every record; the state topic may be compacted meanwhile (old versions and deleted keys
    // gone), so it is compared by what a replay of it gives, never by its records.
    const [history, state] = await waitFor(
      'the last delete in the history, and the state replaying to the same store',
      async () => {
        const h = mine(await readTopic(stack, 'kcm.watch.services'));
        const s = mine(await readTopic(stack, 'kcm.state.services'));
        const done =
          h.filter((r) => r.value?.type === 'Deleted').length === 3 &&
          h.filter((r) => r.value?.type === 'Applied').length === 12;
        return done && isDeepStrictEqual(replayed(s), replayed(h)) ? ([h, s] as const) : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    assert.deepEqual(replayed(state), replayed(history));
    assert.deepEqual(
      [...replayed(history).keys()].sort(),
      [3, 4, 5].map((i) => `${ns}/s${i}`),
    );
    assert.deepEqual(
      history.filter((r) => r.key === `${ns}/s0`).map((r) => r.value?.type),
      ['Applied', 'Applied', 'Deleted'],
      'the history keeps every version of s0: added, patched, deleted',
    );
  });
});

describe("a topic's own configs", () => {
  const topic = uniqueName('it-own-configs');
  after(() => bus.deleteTopics([topic]));

  it("given an operator's config set on a kcm-bus topic, when kcm-bus sets its own configs again, then the operator's stays", async () => {
    // The operator's: a topic-level max.message.bytes (a Strimzi KafkaTopic's spec.config, or kafka-configs --alter).
    await bus.ensureTopics([{ topic, partitions: 1, configs: { 'max.message.bytes': '2000000' } }]);
    await bus.ensureTopics([{ topic, partitions: 1, configs: { 'retention.ms': '123000' } }]);
    const configs = await bus.topicConfigs(topic);
    assert.deepEqual([configs['max.message.bytes'], configs['retention.ms']], ['2000000', '123000']);
    // kcm-bus's record limit raises a smaller one and never lowers a larger one.
    await bus.ensureTopics([{ topic, partitions: 1, configs: RECORD_LIMIT_CONFIG }]);
    assert.equal((await bus.topicConfigs(topic))['max.message.bytes'], String(TOPIC_MAX_MESSAGE_BYTES));
    await bus.ensureTopics([{ topic, partitions: 1, configs: { 'max.message.bytes': '8388608' } }]);
    await bus.ensureTopics([{ topic, partitions: 1, configs: RECORD_LIMIT_CONFIG }]);
    assert.equal((await bus.topicConfigs(topic))['max.message.bytes'], '8388608');
  });
});
