import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { busFlags, testStack } from '../support/stack.ts';
import { startService, stopAllServices, type ServiceProcess } from '@kcm-bus/harness/processes.ts';
import { dashboardPanels, exportedSeries, seriesNames } from '../support/dashboard.ts';

const stack = testStack();
const bus = busFlags(stack);

describe("the Grafana dashboard against the services' /metrics", () => {
  const services: ServiceProcess[] = [];

  before(async () => {
    services.push(
      await startService('watcher', [...bus, '--kubeconfig', stack.kubeconfigs.watcher, '--partitions', '3']),
    );
    services.push(
      await startService('writer', [...bus, '--kubeconfig', stack.kubeconfigs.writer, '--partitions', '3']),
    );
    services.push(await startService('reconciler-rc', [...bus, '--redis-url', stack.redis]));
    services.push(await startService('reconciler-endpoint', bus));
    services.push(await startService('reconciler-node', bus));
  });
  after(stopAllServices);

  it('references only series some running service exports (a renamed metric fails here)', async () => {
    const exported = new Set<string>();
    for (const s of services)
      for (const name of exportedSeries(await (await fetch(s.metricsUrl)).text())) exported.add(name);
    const exprs = dashboardPanels().flatMap((p) =>
      (p.targets ?? []).map((t) => ({ title: p.title, expr: t.expr ?? '' })),
    );
    const missing = exprs.flatMap(({ title, expr }) =>
      seriesNames(expr)
        .filter((n) => !exported.has(n))
        .map((n) => `${n} (panel "${title}")`),
    );
    assert.deepEqual(missing, []);
    assert.ok(
      exprs.length > 30 &&
        exported.has('controller_runtime_reconcile_total') &&
        exported.has('rest_client_requests_total'),
    );
  });
});
