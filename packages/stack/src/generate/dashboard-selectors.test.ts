import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { controllersOf, RECONCILER_SERVICES } from '@kcm-bus/catalog/controllers.ts';
import { withDashboardSelectors } from './dashboard-selectors.ts';

const STALE = 'sum(rate(x{controller=~"old"}[5m])) + sum(workqueue_depth{name=~"old|gone"}) + y{node_name=~"keep"}';
const row = (title: string, panels?: object[]) => ({ type: 'row', title, ...(panels ? { panels } : {}) });
const graph = (expr: string) => ({ type: 'timeseries', title: 'g', targets: [{ expr }] });

/** exprs are the expressions of a dashboard's panels, collapsed rows' panels included, in order. */
const exprs = (text: string): string[] =>
  (
    JSON.parse(text) as { panels: { panels?: { targets?: { expr: string }[] }[]; targets?: { expr: string }[] }[] }
  ).panels
    .flatMap((p) => [p, ...(p.panels ?? [])])
    .flatMap((p) => (p.targets ?? []).map((t) => t.expr));

describe("withDashboardSelectors: the reconciler rows' controller and workqueue matchers", () => {
  const [first, second, ...others] = RECONCILER_SERVICES;
  const dashboard = {
    panels: [
      row('watcher'),
      graph(STALE),
      row(first),
      graph(STALE),
      row(second, [graph(STALE)]),
      ...others.map((s) => row(s)),
      row('every service'),
      graph(STALE),
    ],
  };

  it("given stale matchers in a reconciler's row (collapsed or not), then they select exactly its controllers and workqueues", () => {
    const want = (service: (typeof RECONCILER_SERVICES)[number]): string => {
      const cs = controllersOf(service);
      const workqueues = cs.flatMap((c) => c.parts.map((p) => p.workqueue));
      return STALE.replace('"old"', `"${cs.map((c) => c.name).join('|')}"`).replace(
        '"old|gone"',
        `"${workqueues.join('|')}"`,
      );
    };
    assert.deepEqual(exprs(withDashboardSelectors('d.json', JSON.stringify(dashboard))), [
      STALE,
      want(first),
      want(second),
      STALE,
    ]);
  });

  it('given the output, then it is the JSON of the dashboard, two spaces indented, and generating it again changes nothing', () => {
    const once = withDashboardSelectors('d.json', JSON.stringify(dashboard));
    assert.equal(once, `${JSON.stringify(JSON.parse(once), null, 2)}\n`);
    assert.equal(withDashboardSelectors('d.json', once), once);
  });

  it('given a reconciler service without a row, then it fails naming the file and the row to add', () => {
    const without = { panels: dashboard.panels.filter((p) => p.title !== second) };
    assert.throws(
      () => withDashboardSelectors('d.json', JSON.stringify(without)),
      new RegExp(`^Error: d\\.json has no row titled ${second}`),
    );
  });
});
