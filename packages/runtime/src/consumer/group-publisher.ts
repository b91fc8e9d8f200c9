import type { Bus, BusRecord, Publisher } from '../bus/bus.ts';
import { deadLetterHeaders, deadLetterTopic } from '../faults/record-fault.ts';
import type { RecordSource } from '../faults/record-guard.ts';
import type { Mutation } from '../mutation/mutation.ts';
import type { Signing } from '../signing/signing.ts';
import type { ControllerGroupOptions } from './controller-group-options.ts';
import { recordKey } from './record-route.ts';

/**
 * GroupPublisher is everything a member of a controller group writes to Kafka, through one idempotent producer: the
 * controllers' mutations, each signed by its controller, and the dead letters of what it read.
 */
export class GroupPublisher {
  readonly #o: Pick<ControllerGroupOptions, 'groupId' | 'mutations'>;
  #publisher: Publisher | undefined;

  constructor(o: Pick<ControllerGroupOptions, 'groupId' | 'mutations'>) {
    this.#o = o;
  }

  /** connect opens the producer (before the member reads anything it could dead-letter). */
  async connect(bus: Bus): Promise<void> {
    this.#publisher = await bus.publisher();
  }

  /** publish sends mutations keyed by their target object (acks=all), signed as the controller that made them. */
  async publish(mutations: readonly Mutation[], signing: Signing): Promise<void> {
    if (mutations.length === 0 || !this.#publisher) return;
    const { topic, serde } = this.#o.mutations;
    const records = await Promise.all(
      mutations.map(async (m) => {
        const [key, value] = [recordKey(m), (await serde.encode(m)).bytes];
        return { key, value, headers: signing.headers(key, value) };
      }),
    );
    await this.#publisher.send(topic, records);
  }

  /** deadLetter sends a record that can never be handled to its topic's dead-letter topic, the reason in its headers. */
  async deadLetter(source: RecordSource, record: BusRecord, reason: string): Promise<void> {
    const headers = deadLetterHeaders(source, reason, this.#o.groupId);
    await this.#publisher?.send(deadLetterTopic(source.topic), [
      { key: record.key?.toString() ?? '', value: record.value, headers },
    ]);
  }

  async close(): Promise<void> {
    await this.#publisher?.close();
  }
}
