import { SERVICE_MALLOC_ENV, SERVICE_NODE_ARGS } from '@kcm-bus/runtime/service/index.ts';
import type { Sections } from './sections.ts';

/** Workspace is one npm workspace: its folder, its package name, and the packages it depends on at run time. */
export type Workspace = { readonly dir: string; readonly name: string; readonly dependencies: readonly string[] };

/** runTimeClosure are the folders of a workspace and of every workspace it depends on at run time, transitively. */
function runTimeClosure(dir: string, workspaces: readonly Workspace[], seen = new Set<string>()): Set<string> {
  const workspace = workspaces.find((w) => w.dir === dir);
  if (workspace === undefined || seen.has(dir)) return seen;
  seen.add(dir);
  for (const name of workspace.dependencies) {
    const dependency = workspaces.find((w) => w.name === name);
    if (dependency !== undefined) runTimeClosure(dependency.dir, workspaces, seen);
  }
  return seen;
}

/**
 * dockerfileSections are the generated sections of a service's Dockerfile (services/<service>/Dockerfile), from the
 * workspaces: `workspace-manifests` copies every workspace's package.json (npm ci checks them all against the lockfile,
 * whichever workspace it installs), `workspace-sources` the sources of the service and of the workspaces it runs on,
 * `malloc-env` and `command` the environment and node's flags every launcher gives a service (serviceLaunch).
 */
export function dockerfileSections(service: string, workspaces: readonly Workspace[]): Sections {
  const dirs = (all: Iterable<string>): readonly string[] => [...all].sort();
  return {
    'workspace-manifests': dirs(workspaces.map((w) => w.dir)).map((d) => `COPY ${d}/package.json ${d}/`),
    'workspace-sources': dirs(runTimeClosure(`services/${service}`, workspaces)).map((d) => `COPY ${d} ${d}`),
    'malloc-env': [
      `ENV ${Object.entries(SERVICE_MALLOC_ENV)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ')}`,
    ],
    command: [
      `CMD [${['node', ...SERVICE_NODE_ARGS, `services/${service}/src/main.ts`].map((a) => `"${a}"`).join(', ')}]`,
    ],
  };
}
