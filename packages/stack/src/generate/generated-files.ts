import { globSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RECONCILER_SERVICES } from '@kcm-bus/catalog/controllers.ts';
import { SERVICES } from '../kafka-acls.ts';
import { withDashboardSelectors } from './dashboard-selectors.ts';
import { deploymentSections, overlaySections } from './deployment-sections.ts';
import { dockerfileSections, type Workspace } from './dockerfile-sections.ts';
import { rbacManifest } from './rbac.ts';
import { type Sections, withSections } from './sections.ts';

/*
 * What `npm run generate` writes: every checked-in file, or part of one, that follows from the controller catalog
 * (and the stack's derivations of it: kube-access ROLES, the signers) or from the workspaces' manifests, so that a new
 * controller needs no hand edit outside its catalog entry and its code. How much of each file is generated:
 * - wholly, when the file is wholly derived: deploy/kustomize/base/rbac.yaml;
 * - sections (sections.ts), when a file mixes derived lines with lines people tune and review as YAML or Dockerfile
 *   (probes, resources, security contexts, hand-set flags): the Deployments, the example overlay's list of Secrets,
 *   the Dockerfiles' COPY lines, malloc's ENV line and CMD. The checked-in file stays the one place to read what is
 *   deployed, and the generator writes only short lists, not a template of everything around them;
 * - the matchers of the dashboard's reconciler rows, which JSON cannot mark with comments: withDashboardSelectors
 *   rewrites them in place and leaves the rest of the hand-made dashboard as it is.
 * The watcher's Deployment has nothing derived and is not generated.
 */

/** GeneratedFile is a file npm run generate writes: its path from the repository root, its text given the current. */
type GeneratedFile = { readonly path: string; readonly text: (current: string, root: string) => string };

const sectioned = (path: string, sections: (root: string) => Sections): GeneratedFile => ({
  path,
  text: (current, root) => withSections(path, current, sections(root)),
});

const FILES: readonly GeneratedFile[] = [
  { path: 'deploy/kustomize/base/rbac.yaml', text: () => rbacManifest() },
  ...(['writer', ...RECONCILER_SERVICES] as const).map((s) =>
    sectioned(`deploy/kustomize/base/${s}.yaml`, () => deploymentSections(s)),
  ),
  sectioned('deploy/kustomize/overlays/example/kustomization.yaml', overlaySections),
  {
    path: 'deploy/grafana/kcm-bus.json',
    text: (current) => withDashboardSelectors('deploy/grafana/kcm-bus.json', current),
  },
  ...SERVICES.map((s) => sectioned(`services/${s}/Dockerfile`, (root) => dockerfileSections(s, workspacesOf(root)))),
];

/** GENERATED_FILES are the files npm run generate writes, by path from the repository root. */
export const GENERATED_FILES: readonly string[] = FILES.map((f) => f.path);

/** generatedText is what npm run generate writes to one of GENERATED_FILES, from the repository at root as it is. */
export function generatedText(root: string, path: string): string {
  const file = FILES.find((f) => f.path === path);
  if (file === undefined) throw new Error(`${path} is not a generated file: ${GENERATED_FILES.join(', ')}`);
  return file.text(readFileSync(join(root, path), 'utf8'), root);
}

/** workspacesOf are the workspaces the root package.json names, with their package names and run-time dependencies. */
function workspacesOf(root: string): readonly Workspace[] {
  const read = (dir: string): { name: string; workspaces?: string[]; dependencies?: Record<string, string> } =>
    JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  return (read('.').workspaces ?? [])
    .flatMap((pattern) => globSync(`${pattern}/package.json`, { cwd: root }))
    .map((file) => {
      const manifest = read(dirname(file));
      return { dir: dirname(file), name: manifest.name, dependencies: Object.keys(manifest.dependencies ?? {}) };
    });
}
