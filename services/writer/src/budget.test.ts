import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@kcm-bus/runtime/workqueue/index.ts';
import { budgetConfig, DEFAULT_KUBE_API_BURST, DEFAULT_KUBE_API_QPS, RequestBudget } from './budget.ts';

describe('budgetConfig', () => {
  it('given the defaults, then 20 qps and burst 30 as kube-controller-manager', () => {
    assert.deepEqual(budgetConfig(DEFAULT_KUBE_API_QPS, DEFAULT_KUBE_API_BURST), { qps: 20, burst: 30 });
  });

  it('given zero or negative values, then client-go semantics: 0 means its default, negative qps means no limit', () => {
    assert.deepEqual(budgetConfig(0, 0), { qps: 5, burst: 10 });
    assert.deepEqual(budgetConfig(-1, 30), { qps: Infinity, burst: 30 });
    assert.throws(() => budgetConfig(20, -1), /invalid budget/);
  });
});

describe('RequestBudget', () => {
  it("given qps 5 and burst 5, then 25 requests need at least 4 seconds (the issue's end-to-end check, in fake time)", () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(budgetConfig(5, 5), clock, clock);
    const waits = Array.from({ length: 25 }, () => budget.reserve('c'));
    assert.deepEqual(waits.slice(0, 6), [0, 0, 0, 0, 0, 200]);
    assert.equal(waits[24], 4000);
  });

  it("given the namespace controller, then its bucket is the flags' times 20 (qps) and 100 (burst), as upstream's client", () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(budgetConfig(1, 1), clock, clock);
    const waits = Array.from({ length: 101 }, () => budget.reserve('namespace-controller'));
    assert.deepEqual([waits[99], waits[100]], [0, 50]);
    assert.equal(budget.reserve('c'), 0);
    assert.equal(budget.reserve('c'), 1000);
  });

  it('given the bucket refills while idle, then a later request passes at once', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(budgetConfig(1, 1), clock, clock);
    assert.equal(budget.reserve('c'), 0);
    clock.advance(1000);
    assert.equal(budget.reserve('c'), 0);
    assert.equal(budget.reserve('c'), 1000);
  });

  it('given an exhausted bucket, then acquire resolves only when the clock reaches the reserved turn', async () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(budgetConfig(10, 1), clock, clock);
    await budget.acquire('c');
    let sent = false;
    const second = budget.acquire('c').then(() => {
      sent = true;
    });
    clock.advance(99);
    await Promise.resolve();
    assert.equal(sent, false);
    clock.advance(1);
    await second;
    assert.equal(sent, true);
  });

  it('given two controllers, then each has a bucket of its own, as upstream gives each controller a client of its own', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(budgetConfig(1, 1), clock, clock);
    assert.deepEqual(
      [
        budget.reserve('endpoints-controller'),
        budget.reserve('endpointslice-controller'),
        budget.reserve('endpoints-controller'),
      ],
      [0, 0, 1000],
    );
  });

  it('given no limit, then every request passes at once', () => {
    const clock = new FakeClock();
    const budget = new RequestBudget(budgetConfig(-1, 0), clock, clock);
    assert.ok(Array.from({ length: 1000 }, () => budget.reserve('c')).every((w) => w === 0));
  });
});
