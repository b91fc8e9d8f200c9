import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { obtain, type Recipe } from '../obtain.ts';
import { VERSIONS } from '../versions.ts';
import { go, goOutput } from './go.ts';

const KUBE = 'k8s.io/kubernetes';
const COMMANDS = ['kube-apiserver', 'kube-scheduler', 'kube-controller-manager'] as const;

/** KubeCommand names a Kubernetes binary the stack builds. */
export type KubeCommand = (typeof COMMANDS)[number];

type GoModJson = {
  readonly Go?: { readonly Version: string };
  readonly Godebug?: readonly { readonly Key: string; readonly Value: string }[];
  readonly Replace?: readonly { readonly Old: { readonly Path: string }; readonly New: { readonly Path: string } }[];
};

/**
 * kubeModuleRecipe prepares a throwaway module requiring k8s.io/kubernetes: upstream's go.mod replaces
 * its staging modules with local paths, so each `k8s.io/<staging> => ./staging/...` becomes the
 * published v0.MINOR.PATCH, and upstream's go and godebug lines are copied.
 */
export const kubeModuleRecipe: Recipe = {
  part: 'kube-module',
  version: VERSIONS.kubernetes,
  async build(dir, log) {
    const info = JSON.parse(await goOutput(['mod', 'download', '-json', `${KUBE}@${VERSIONS.kubernetes}`], dir)) as {
      GoMod: string;
    };
    const upstream = JSON.parse(await goOutput(['mod', 'edit', '-json', info.GoMod], dir)) as GoModJson;
    writeFileSync(join(dir, 'go.mod'), throwawayGoMod(upstream));
    await go(['get', '-tool', ...COMMANDS.map((c) => `${KUBE}/cmd/${c}`)], dir, log);
  },
};

/** throwawayGoMod writes the go.mod of the build module from upstream's parsed go.mod. */
export function throwawayGoMod(upstream: GoModJson): string {
  const staging = VERSIONS.kubernetes.replace(/^v1\./, 'v0.');
  const replaces = (upstream.Replace ?? [])
    .filter((r) => r.New.Path.startsWith('./staging/'))
    .map((r) => `\t${r.Old.Path} => ${r.Old.Path} ${staging}`);
  const godebug = (upstream.Godebug ?? []).map((d) => `godebug ${d.Key}=${d.Value}`);
  return [
    'module kcm-bus.local/kube-build',
    '',
    `go ${upstream.Go?.Version ?? '1.26.0'}`,
    '',
    ...godebug,
    '',
    `require ${KUBE} ${VERSIONS.kubernetes}`,
    '',
    'replace (',
    ...replaces,
    ')',
    '',
  ].join('\n');
}

/** kubeRecipe builds one Kubernetes command with its version stamped as upstream's release build does. */
export function kubeRecipe(command: KubeCommand): Recipe {
  return {
    part: command,
    version: VERSIONS.kubernetes,
    async build(dir, log) {
      const moduleDir = await obtain(kubeModuleRecipe, (line) => log.write(`${line}\n`));
      await go(
        ['build', '-trimpath', '-ldflags', versionLdflags(), '-o', join(dir, 'bin', command), `${KUBE}/cmd/${command}`],
        moduleDir,
        log,
      );
    },
  };
}

function versionLdflags(): string {
  const [major, minor] = VERSIONS.kubernetes.replace(/^v/, '').split('.');
  const vars = { gitVersion: VERSIONS.kubernetes, gitMajor: major ?? '', gitMinor: minor ?? '', gitTreeState: 'clean' };
  return ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']
    .flatMap((pkg) => Object.entries(vars).map(([k, v]) => `-X ${pkg}.${k}=${v}`))
    .join(' ');
}
