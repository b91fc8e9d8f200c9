import { controllersOf, RECONCILER_SERVICES, type ReconcilerService } from '@kcm-bus/catalog/controllers.ts';

type Panel = {
  readonly type: string;
  readonly title: string;
  readonly panels?: readonly Panel[];
  readonly targets?: readonly { expr?: string }[];
};

const isReconciler = (row: string | undefined): row is ReconcilerService =>
  (RECONCILER_SERVICES as readonly (string | undefined)[]).includes(row);

/** selected is an expression whose controller and workqueue (`name`) matchers select exactly a service's own. */
function selected(expr: string, service: ReconcilerService): string {
  const controllers = controllersOf(service);
  const names = controllers.map((c) => c.name).join('|');
  const workqueues = controllers.flatMap((c) => c.parts.map((p) => p.workqueue)).join('|');
  return expr
    .replace(/(?<![\w])controller=~"[^"]*"/g, `controller=~"${names}"`)
    .replace(/(?<![\w])name=~"[^"]*"/g, `name=~"${workqueues}"`);
}

/**
 * withDashboardSelectors is the Grafana dashboard (deploy/grafana/kcm-bus.json) with the `controller=~"…"` and
 * `name=~"…"` (workqueue) matchers of every panel in a reconciler service's row set to that service's controllers and
 * workqueues, from the catalog. The rest of the dashboard is written by hand. It fails, naming the file, when a
 * reconciler service has no row (a row titled as the service, its panels after it or inside it when collapsed).
 */
export function withDashboardSelectors(file: string, text: string): string {
  const dashboard = JSON.parse(text) as { readonly panels: readonly Panel[] };
  const rows = new Set<string>();
  let row: string | undefined;
  for (const panel of dashboard.panels) {
    if (panel.type === 'row') rows.add((row = panel.title));
    if (!isReconciler(row)) continue;
    for (const p of [panel, ...(panel.panels ?? [])])
      for (const target of p.targets ?? []) if (target.expr !== undefined) target.expr = selected(target.expr, row);
  }
  const missing = RECONCILER_SERVICES.filter((s) => !rows.has(s));
  if (missing.length > 0)
    throw new Error(`${file} has no row titled ${missing.join(', ')}: add one (copy another reconciler's row)`);
  return `${JSON.stringify(dashboard, null, 2)}\n`;
}
