import { stackConfig } from '@kcm-bus/stack/config.ts';
import { locateAll } from '@kcm-bus/stack/obtain-all.ts';
import { controlParts } from '@kcm-bus/stack/parts.ts';
import { stopProcess } from '@kcm-bus/stack/procs.ts';
import { startPart } from '@kcm-bus/stack/start.ts';

/**
 * restartApiserver stops the test stack's kube-apiserver by its pid and starts it again: its watch cache
 * then begins at the current resourceVersion, so a watch from an older one gets 410 Gone.
 */
export async function restartApiserver(): Promise<void> {
  const c = stackConfig(process.env['KCM_BUS_TEST_PROFILE'] ?? 'test');
  const part = controlParts(c, locateAll()).find((p) => p.name === 'kube-apiserver');
  if (!part) throw new Error('no kube-apiserver part');
  await stopProcess(c.dir, part.name);
  await startPart(c, part, () => undefined);
}
