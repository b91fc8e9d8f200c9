import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logLevel } from 'kafkajs';
import { levelOf } from './bus.kafka.ts';

const entry = (namespace: string, level: number, log: Record<string, unknown>) => ({
  namespace,
  level,
  log: { timestamp: 't', message: 'm', ...log },
});

describe('levelOf: kafkajs log entries at the level an operator should see', () => {
  it('given a send that kafkajs is retrying (CONCURRENT_TRANSACTIONS), then it is debug, not error', () => {
    const retried = entry('Producer', logLevel.ERROR, {
      message:
        'Failed to send messages: The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing',
      retryCount: 0,
      retryTime: 17,
    });
    assert.equal(levelOf(retried), 'debug');
  });

  it('given a per-response error of a connection, then it is debug', () => {
    assert.equal(
      levelOf(entry('Connection', logLevel.ERROR, { message: 'Response Metadata(key: 3, version: 6)' })),
      'debug',
    );
  });

  it('given an error or a warning that is no retry, then it keeps its level', () => {
    assert.equal(
      levelOf(entry('Consumer', logLevel.ERROR, { message: 'Crash: KafkaJSNumberOfRetriesExceeded' })),
      'error',
    );
    assert.equal(levelOf(entry('Consumer', logLevel.WARN, { message: 'rebalancing' })), 'warn');
  });
});
