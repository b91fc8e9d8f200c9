/** JsonPatchOp is one RFC 6902 operation, as the apiserver's json-patch (evanphx/json-patch v4) applies it. */
export type JsonPatchOp =
  | { readonly op: 'test' | 'add' | 'replace'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string };
