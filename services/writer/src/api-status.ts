/**
 * ApiAnswer is what an HTTP answer body says, read leniently: a metav1.Status (kind Status) gives reason, message
 * and causes; an object gives its uid and resourceVersion; anything else (a proxy's HTML page) only a message.
 */
export type ApiAnswer = {
  readonly reason: string | null;
  readonly message: string | null;
  readonly causes: readonly { readonly type: string | null; readonly field: string | null }[];
  readonly uid: string | null;
  readonly resourceVersion: string | null;
};

type Loose = Record<string, unknown> | undefined;
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const MAX_MESSAGE = 500;

/** readAnswer parses an apiserver answer body; it never throws (a truncated body still yields a message). */
export function readAnswer(body: string): ApiAnswer {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return {
      reason: null,
      message: str(body.slice(0, MAX_MESSAGE).trim()),
      causes: [],
      uid: null,
      resourceVersion: null,
    };
  }
  const top = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (top['kind'] === 'Status') return readStatus(top);
  const meta = top['metadata'] as Loose;
  return {
    reason: null,
    message: null,
    causes: [],
    uid: str(meta?.['uid']),
    resourceVersion: str(meta?.['resourceVersion']),
  };
}

/** readStatus reads a metav1.Status: a failure's reason and causes, or a successful delete's details.uid. */
function readStatus(status: Record<string, unknown>): ApiAnswer {
  const details = status['details'] as Loose;
  const causes = Array.isArray(details?.['causes']) ? (details['causes'] as Loose[]) : [];
  return {
    reason: str(status['reason']),
    message: str(status['message']),
    causes: causes.map((c) => ({ type: str(c?.['reason']), field: str(c?.['field']) })),
    uid: str(details?.['uid']),
    resourceVersion: null,
  };
}

/** hasStatusCause mirrors apimachinery errors.HasStatusCause: some cause of the Status has that type. */
export function hasStatusCause(answer: ApiAnswer, type: string): boolean {
  return answer.causes.some((c) => c.type === type);
}
