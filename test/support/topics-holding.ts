import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { readRaw, topicNames } from '@kcm-bus/harness/topic.ts';

/**
 * topicsHolding says, for each text, the stack's topics whose raw records (key or value) hold it or its base64: the
 * search behind every "no secret value on any topic" check.
 */
export async function topicsHolding(
  stack: StackEndpoints,
  texts: readonly string[],
): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = Object.fromEntries(texts.map((t) => [t, []]));
  const needles = texts.map((t) => [t, Buffer.from(t), Buffer.from(Buffer.from(t).toString('base64'))] as const);
  for (const topic of await topicNames(stack)) {
    const records = await readRaw(stack, topic);
    for (const [t, raw, b64] of needles)
      if (records.some((r) => [r.value, Buffer.from(r.key)].some((b) => b?.includes(raw) || b?.includes(b64))))
        found[t]!.push(topic);
  }
  return found;
}
