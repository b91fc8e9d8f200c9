import { homedir } from 'node:os';
import { join } from 'node:path';

/** cacheRoot is where obtained parts live, keyed by part and version: $KCM_BUS_CACHE or ~/.cache/kcm-bus. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env['KCM_BUS_CACHE'] ?? join(env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'kcm-bus');
}

/** partDir is the cache folder of one part at one version. */
export function partDir(part: string, version: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), part, version);
}

/** runDir holds one stack instance's state (data, certificates, kubeconfigs, pids, logs). */
export function runDir(profile: string, env: NodeJS.ProcessEnv = process.env): string {
  return env['KCM_BUS_RUN_DIR'] ?? join(cacheRoot(env), 'run', profile);
}
