import type { Decision } from '@kcm-bus/runtime/controller/index.ts';

type Optional = { -readonly [K in keyof Decision]?: Decision[K] | undefined };

/** withOptional is a Decision without its undefined optional fields (exactOptionalPropertyTypes: absent, not undefined). */
export function withOptional(r: Optional & Pick<Decision, 'mutations'>): Decision {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as Decision;
}
