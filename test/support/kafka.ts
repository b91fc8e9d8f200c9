import { kafkaBus, type KafkaBusOptions } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';

/**
 * produceAndConsume sends values through a fresh single-partition topic with an idempotent publisher
 * (acks=all) and reads them back as the member of a new (ephemeral) consumer group; over TLS and SASL when given.
 */
export async function produceAndConsume(
  bootstrap: string,
  topic: string,
  values: readonly string[],
  security: Pick<KafkaBusOptions, 'ssl' | 'sasl'> = {},
): Promise<string[]> {
  const bus = kafkaBus({ brokers: [bootstrap], clientId: 'kcm-bus-it', ...security });
  await bus.ensureTopics([{ topic, partitions: 1, configs: {} }]);
  const publisher = await bus.publisher();
  await publisher.send(
    topic,
    values.map((value, i) => ({ key: String(i), value: Buffer.from(value) })),
  );
  await publisher.close();
  const received: string[] = [];
  let crashed: unknown;
  const member = await bus.joinGroup({
    groupId: `${topic}-group`,
    topics: [topic],
    fromBeginning: true,
    ephemeral: true,
    onBatch: async (batch) => void received.push(...batch.records.map((r) => r.value?.toString() ?? '')),
    onCrash: (err, restart) => void (crashed = restart ? undefined : err),
  });
  try {
    await waitFor(
      `${values.length} records`,
      () => {
        if (crashed) throw crashed;
        return received.length >= values.length;
      },
      { timeoutMs: 60_000 },
    );
  } finally {
    await member.stop();
  }
  return received;
}
