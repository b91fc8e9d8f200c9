import type { KubeObject } from './events.ts';
import type { RawWatchEvent } from './watch-stream.ts';

/** ListPage is one page of a paginated list. */
export type ListPage = {
  readonly items: readonly KubeObject[];
  readonly resourceVersion: string;
  readonly continue?: string | undefined;
};

/**
 * ListWatcher is the port to the API for one kind (client-go's ListerWatcher): paginated lists and
 * watches with bookmarks. watch calls onOpen once the server accepted the watch (200), then onEvent for each event
 * in order, waiting for it, and resolves when the server ends the watch; transport errors and non-2xx answers reject
 * with an ApiStatusError.
 */
export interface ListWatcher {
  list(opts: { readonly limit: number; readonly continue?: string | undefined }): Promise<ListPage>;
  watch(
    opts: {
      readonly resourceVersion: string;
      readonly timeoutSeconds: number;
      readonly signal: AbortSignal;
      readonly onOpen?: () => void;
    },
    onEvent: (event: RawWatchEvent) => Promise<void>,
  ): Promise<void>;
}

/** ApiStatusError is a non-2xx answer of the API (or a watch ERROR event), with its HTTP status code. */
export class ApiStatusError extends Error {
  readonly code: number;
  constructor(message: string, code: number) {
    super(message);
    this.code = code;
  }
}

/** isGoneError tells whether an error is 410 Gone: the resourceVersion (or continue token) is too old. */
export function isGoneError(err: unknown): boolean {
  return err instanceof ApiStatusError && err.code === 410;
}
