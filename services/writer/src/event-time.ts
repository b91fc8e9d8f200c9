const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * unixNanos reads an RFC 3339 time (up to nanoseconds, any zone) as nanoseconds since the epoch, exactly: the
 * event name's suffix is this number in hex, as client-go's makeEvent writes `t.UnixNano()`.
 */
export function unixNanos(rfc3339: string): bigint {
  const match = RFC3339.exec(rfc3339);
  const ms = match ? Date.parse(`${match[1]}${match[3]}`) : Number.NaN;
  if (!match || Number.isNaN(ms)) throw new RangeError(`not an RFC 3339 time: ${JSON.stringify(rfc3339)}`);
  return BigInt(ms) * 1_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

/** metaTime formats nanoseconds as metav1.Time serializes: RFC 3339 in UTC, whole seconds. */
export function metaTime(nanos: bigint): string {
  const seconds = nanos / 1_000_000_000n - (nanos < 0n && nanos % 1_000_000_000n !== 0n ? 1n : 0n);
  return new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
