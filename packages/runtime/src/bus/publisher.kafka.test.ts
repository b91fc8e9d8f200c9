import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PublisherFencedError, publisherFenced } from './bus.ts';
import { producerFenced } from './publisher.kafka.ts';

/** kafkajsError is an error shaped as kafkajs builds them: a protocol error's type, wrapped with its cause by the retrier. */
function kafkajsError(message: string, type?: string): Error {
  const inner = Object.assign(new Error(message), type === undefined ? {} : { type });
  return new Error(message, { cause: inner });
}

describe('producerFenced: which failed transactional sends are final', () => {
  it('given INVALID_PRODUCER_EPOCH or PRODUCER_FENCED (code 90, unnamed by kafkajs) in the cause chain, then fenced', () => {
    assert.equal(
      producerFenced(
        kafkajsError(
          'There is a newer producer with the same transactionalId which fences the current one',
          'INVALID_PRODUCER_EPOCH',
        ),
      ),
      true,
    );
    assert.equal(producerFenced(kafkajsError('Unknown error code 90', 'KAFKAJS_UNKNOWN_ERROR_CODE')), true);
  });

  it('given a broker that is away or busy, then not fenced: the send is retried on a new producer', () => {
    assert.equal(producerFenced(kafkajsError('Connection error: connect ECONNREFUSED 127.0.0.1:9092')), false);
    assert.equal(producerFenced(kafkajsError('The coordinator is not available', 'COORDINATOR_NOT_AVAILABLE')), false);
    assert.equal(producerFenced(kafkajsError('Unknown error code 91', 'KAFKAJS_UNKNOWN_ERROR_CODE')), false);
  });
});

describe('publisherFenced: what a caller of the port treats as final', () => {
  it('given a PublisherFencedError, bare or wrapped, then fenced; given any other failure, then not', () => {
    const fenced = new PublisherFencedError('taken over');
    assert.equal(publisherFenced(fenced), true);
    assert.equal(publisherFenced(new Error('publishing failed', { cause: fenced })), true);
    assert.equal(publisherFenced(kafkajsError('Connection error: connect ECONNREFUSED 127.0.0.1:9092')), false);
  });
});
