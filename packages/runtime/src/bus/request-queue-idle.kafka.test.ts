import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RequestQueue, stopIdleRequestQueueLoop } from './request-queue-idle.kafka.ts';

type Queue = {
  checkPendingRequests(): void;
  destroy(): void;
  throttleCheckTimeoutId: unknown;
  pending: unknown[];
  throttledUntil: number;
};

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const newQueue = (): Queue =>
  new (RequestQueue as unknown as new (o: object) => Queue)({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: true,
    clientId: 'test',
    broker: 'localhost:9092',
    logger,
  });

describe('kafkajs RequestQueue with the idle loop stopped', () => {
  stopIdleRequestQueueLoop();

  it('given nothing pending and no throttle, when the queue is checked (after every answer), then no timer is set', () => {
    const q = newQueue();
    q.checkPendingRequests();
    assert.equal(q.throttleCheckTimeoutId, null, 'kafkajs 2.2.4 sets a 1 ms timer here, and again from it, forever');
    q.destroy();
  });

  it('given a request waiting while the broker throttles, then its check is still scheduled', () => {
    const q = newQueue();
    q.throttledUntil = Date.now() + 60_000;
    q.pending.push({});
    q.checkPendingRequests();
    assert.notEqual(q.throttleCheckTimeoutId, null);
    q.destroy();
  });
});
