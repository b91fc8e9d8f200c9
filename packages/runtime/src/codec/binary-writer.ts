/** SCRATCH_BYTES is the buffer a writer starts with: a watched object of a few kilobytes fits in it. */
const SCRATCH_BYTES = 64 * 1024;

/** SHORT_STRING: a string shorter than this, if ASCII, has a one-byte length and is copied by a loop, not by Buffer. */
const SHORT_STRING = 64;

/**
 * BinaryWriter writes the primitives of Avro's binary encoding (specification, "Binary Encoding") into one scratch
 * buffer, for the encoders compile-encoder.ts generates. Like avsc's Tap, a write past the end of the buffer writes
 * nothing but still moves `pos`, so an encoder checks `overflowed()` once at the end, grows the buffer and encodes
 * again, rather than checking room before each byte.
 */
export class BinaryWriter {
  buf: Buffer = Buffer.allocUnsafe(SCRATCH_BYTES);
  pos = 0;

  /** byte writes one byte: a boolean, or the index of a union branch below 64 (its zigzag varint is 2 × index). */
  byte(b: number): void {
    this.buf[this.pos++] = b;
  }

  /** long writes an int or a long as a zigzag varint; numbers beyond 2^30 take float arithmetic, as in avsc. */
  long(n: number): void {
    const buf = this.buf;
    if (n >= -1073741824 && n < 1073741824) {
      let m = n >= 0 ? n << 1 : (~n << 1) | 1;
      while (m > 0x7f) {
        buf[this.pos++] = (m & 0x7f) | 0x80;
        m >>>= 7;
      }
      buf[this.pos++] = m;
      return;
    }
    let f = n >= 0 ? n * 2 : -n * 2 - 1;
    while (f >= 0x80) {
      buf[this.pos++] = (f % 0x80) | 0x80;
      f = Math.floor(f / 0x80);
    }
    buf[this.pos++] = f;
  }

  /** string writes a length-prefixed UTF-8 string; a short ASCII one (most Kubernetes strings) in a loop of ours. */
  string(s: string): void {
    const n = s.length;
    const start = this.pos + 1;
    const buf = this.buf;
    if (n < SHORT_STRING && start + n <= buf.length) {
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c > 0x7f) break;
        buf[start + i] = c;
      }
      if (i === n) {
        buf[this.pos] = n << 1;
        this.pos = start + n;
        return;
      }
    }
    this.#utf8(s);
  }

  #utf8(s: string): void {
    const length = Buffer.byteLength(s);
    this.long(length);
    if (this.pos + length <= this.buf.length) this.buf.write(s, this.pos, length, 'utf8');
    this.pos += length;
  }

  /** double writes an IEEE 754 double, little-endian. */
  double(d: number): void {
    if (this.pos + 8 <= this.buf.length) this.buf.writeDoubleLE(d, this.pos);
    this.pos += 8;
  }

  /** float writes an IEEE 754 single, little-endian. */
  float(f: number): void {
    if (this.pos + 4 <= this.buf.length) this.buf.writeFloatLE(f, this.pos);
    this.pos += 4;
  }

  /** start makes the writer write from the start of its buffer, grown first if the last value did not fit. */
  start(): void {
    if (this.pos > this.buf.length) this.buf = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.pos));
    this.pos = 0;
  }

  /** overflowed tells whether the last value was larger than the buffer (start, then write it again). */
  overflowed(): boolean {
    return this.pos > this.buf.length;
  }

  /** written is a copy of what was written since start, the scratch buffer being reused by the next value. */
  written(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}
