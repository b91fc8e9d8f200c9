import { replayService } from '../replay/replay.node.ts';
import type { Declared } from '../controller/catalog-declaration.ts';
import { controllerFlags } from './controller-flags.ts';
import { runControllers } from './run-controllers.node.ts';

/**
 * controllerService is a reconciler service's main: `<service> replay …` runs its controllers over a window of
 * history (replayService), anything else runs them (runControllers). A service's main.ts is one call of it.
 */
export async function controllerService(
  ds: readonly Declared[],
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  if (argv[0] === 'replay') {
    process.exitCode = await replayService(ds, controllerFlags(ds), argv.slice(1));
    return;
  }
  await runControllers(ds);
}
