import type { KubeObject } from './events.ts';

/** RawWatchEvent is one line of a Kubernetes watch stream. */
export type RawWatchEvent = {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: KubeObject;
};

/** WatchStreamError is a line of the watch stream that is not a watch event (garbage, or a proxy's page). */
export class WatchStreamError extends Error {}

const TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/**
 * LineSplitter cuts a byte stream into lines; a line may arrive in pieces across chunks. Watch streams are
 * one JSON object per line (the apiserver's json framing).
 */
export class LineSplitter {
  #rest = '';

  /** push returns the complete lines of a chunk, keeping the unfinished tail for the next one. */
  push(chunk: string): string[] {
    const text = this.#rest + chunk;
    const lines = text.split('\n');
    this.#rest = lines.pop() ?? '';
    return lines.filter((l) => l.trim() !== '');
  }
}

/** parseWatchLine reads one watch event, failing with WatchStreamError on anything else. */
export function parseWatchLine(line: string): RawWatchEvent {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new WatchStreamError(`not a watch event (not JSON): ${line.slice(0, 120)}`);
  }
  const event = value as Partial<RawWatchEvent> | null;
  if (
    !event ||
    typeof event.type !== 'string' ||
    !TYPES.has(event.type) ||
    typeof event.object !== 'object' ||
    event.object === null
  ) {
    throw new WatchStreamError(`not a watch event: ${line.slice(0, 120)}`);
  }
  return event as RawWatchEvent;
}

/** isGone tells whether a watch ERROR event is 410 Gone: the resourceVersion is too old, relist. */
export function isGone(event: RawWatchEvent): boolean {
  return event.type === 'ERROR' && (event.object as { code?: number }).code === 410;
}
