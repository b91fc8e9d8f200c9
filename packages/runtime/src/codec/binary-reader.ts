/** SLICED_STRING: V8 copies a substring shorter than this (SlicedString::kMinLength); a longer one points into it. */
const SLICED_STRING = 13;

/** MAX_WEIGHTLESS_ITEMS bounds a block of items that take no bytes (nulls), which no byte count can bound. */
const MAX_WEIGHTLESS_ITEMS = 1 << 24;

const EMPTY = Buffer.alloc(0);

/** AvroDecodeError says why bytes are no value of the writer schema: cut short, trailing data, a bad index. */
export class AvroDecodeError extends Error {}

/**
 * BinaryReader reads the primitives of Avro's binary encoding from one payload at a time, for the decoders
 * compile-decoder.ts generates. Reading past the end yields garbage rather than throwing at each byte; lengths and
 * counts are checked against what is left, so garbage cannot make a decoder allocate or loop without bound, and
 * `finish` throws unless the value ended exactly at the end of the payload.
 */
export class BinaryReader {
  buf: Buffer = EMPTY;
  pos = 0;
  #end = 0;
  /** #latin1 is the payload as a one-byte string, position for position: short ASCII strings are cut from it. */
  #latin1 = '';

  /** start reads `payload` from its first byte. */
  start(payload: Buffer): void {
    this.buf = payload;
    this.pos = 0;
    this.#end = payload.length;
    this.#latin1 = payload.latin1Slice(0, payload.length);
  }

  /** finish throws unless the value read ended at the end of the payload. */
  finish(): void {
    if (this.pos !== this.#end)
      throw new AvroDecodeError(this.pos > this.#end ? 'truncated buffer' : 'trailing data after the value');
  }

  /** release lets go of the payload (after a value, or after an error). */
  release(): void {
    this.buf = EMPTY;
    this.#latin1 = '';
  }

  /** byte reads one byte: a boolean, or a union index below 64 (2 × index). */
  byte(): number {
    return this.buf[this.pos++] as number;
  }

  /** long reads a zigzag varint as a number (a long beyond 2^53 loses precision, as in avsc). */
  long(): number {
    const buf = this.buf;
    let b = buf[this.pos++] as number;
    let n = b & 0x7f;
    let shift = 7;
    while (b & 0x80 && shift < 28) {
      b = buf[this.pos++] as number;
      n |= (b & 0x7f) << shift;
      shift += 7;
    }
    if (!(b & 0x80)) return (n >>> 1) ^ -(n & 1);
    let f = n;
    let scale = 268435456;
    do {
      b = buf[this.pos++] as number;
      f += (b & 0x7f) * scale;
      scale *= 128;
    } while (b & 0x80 && scale < 2 ** 70);
    return f % 2 ? -(f + 1) / 2 : f / 2;
  }

  /** string reads a length-prefixed UTF-8 string. */
  string(): string {
    const length = this.#length();
    const start = this.pos;
    const end = (this.pos += length);
    if (length < SLICED_STRING && isAscii(this.buf, start, end)) return this.#latin1.substring(start, end);
    return this.buf.utf8Slice(start, end);
  }

  /** skipString skips a string (or bytes) without building it. */
  skipString(): void {
    const length = this.#length();
    this.pos += length;
  }

  #length(): number {
    const length = this.long();
    if (length < 0 || this.pos + length > this.#end)
      throw new AvroDecodeError(`${length} bytes at ${this.pos} run past the end of the payload`);
    return length;
  }

  /** skipLong skips a varint. */
  skipLong(): void {
    while ((this.buf[this.pos++] as number) & 0x80 && this.pos < this.#end);
  }

  /** double reads an IEEE 754 double, little-endian. */
  double(): number {
    const d = this.pos + 8 <= this.#end ? this.buf.readDoubleLE(this.pos) : 0;
    this.pos += 8;
    return d;
  }

  /** float reads an IEEE 754 single, little-endian. */
  float(): number {
    const f = this.pos + 4 <= this.#end ? this.buf.readFloatLE(this.pos) : 0;
    this.pos += 4;
    return f;
  }

  /**
   * count reads the item count of the next block of an array or a map (0: no more), skipping the byte size a
   * writer may give after a negative count; a count larger than the bytes left could hold (`itemBytes` at least
   * each) throws.
   */
  count(itemBytes: number): number {
    const n = this.long();
    if (n >= 0) return this.#checked(n, itemBytes);
    this.skipLong();
    return this.#checked(-n, itemBytes);
  }

  /** skipBlock is count for a skipper: a block whose writer gave its byte size is skipped whole (-1: read the next). */
  skipBlock(itemBytes: number): number {
    const n = this.long();
    if (n >= 0) return this.#checked(n, itemBytes);
    this.skipString();
    return -1;
  }

  #checked(n: number, itemBytes: number): number {
    const room = itemBytes === 0 ? MAX_WEIGHTLESS_ITEMS : (this.#end - this.pos) / itemBytes;
    if (n > room) throw new AvroDecodeError(`block of ${n} items at ${this.pos} is larger than the payload`);
    return n;
  }

  /** unreadable throws for a union branch the writer used that the reader's schema has no place for. */
  unreadable(branch: string, path: string): never {
    throw new AvroDecodeError(`${path || '(root)'}: the reader's schema cannot read the writer's ${branch}`);
  }

  /** badIndex throws for a union branch or enum symbol index the writer schema does not have. */
  badIndex(what: string, index: number | undefined, path: string): never {
    if (this.pos > this.#end) throw new AvroDecodeError(`truncated buffer at ${path || '(root)'}`);
    throw new AvroDecodeError(`${path || '(root)'}: no ${what} of index ${String(index)} in the writer schema`);
  }
}

function isAscii(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if ((buf[i] as number) > 0x7f) return false;
  return true;
}

declare global {
  interface Buffer {
    /** latin1Slice and utf8Slice are Node's own Buffer#toString for one encoding, without its argument checks. */
    latin1Slice(start: number, end: number): string;
    utf8Slice(start: number, end: number): string;
  }
}
