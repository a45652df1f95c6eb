/**
 * The bit-level layer of the mock's H.264 writer (mock/media/h264.ts): an RBSP writer (u(n), ue(v), se(v),
 * trailing bits; ITU-T H.264 7.2 and 9.1) and NAL units in AVCC form with emulation prevention bytes (7.4.1).
 * Standard JavaScript only.
 */

/** An RBSP writer over a growable byte buffer: u(n), ue(v), se(v), byte-aligned raw bytes. */
export class BitWriter {
  buf: Uint8Array;
  pos = 0;
  private acc = 0;
  private n = 0;

  constructor(size: number) {
    this.buf = new Uint8Array(size);
  }

  reset(): void {
    this.pos = 0;
    this.acc = 0;
    this.n = 0;
  }

  /** Makes room for `bytes` more bytes. */
  reserve(bytes: number): void {
    if (this.pos + bytes + 8 <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + bytes + 64));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** `n` bits (n <= 24) of `v`, most significant first. */
  u(n: number, v: number): void {
    this.acc = (this.acc << n) | v;
    this.n += n;
    while (this.n >= 8) {
      this.n -= 8;
      this.buf[this.pos++] = (this.acc >>> this.n) & 0xff;
    }
    this.acc &= (1 << this.n) - 1;
  }

  /** Unsigned exp-Golomb. */
  ue(v: number): void {
    const x = v + 1;
    const len = 32 - Math.clz32(x);
    if (len <= 12) this.u(2 * len - 1, x);
    else {
      this.u(len - 1, 0);
      this.u(len, x);
    }
  }

  /** Signed exp-Golomb. */
  se(v: number): void {
    this.ue(v > 0 ? 2 * v - 1 : -2 * v);
  }

  /** Zero bits up to the next byte boundary. */
  align(): void {
    if (this.n > 0) this.u(8 - this.n, 0);
  }

  /** rbsp_trailing_bits: a one bit, then zero bits to the byte boundary. */
  trailing(): void {
    this.u(1, 1);
    this.align();
  }

  /** The RBSP written so far (a view; copy before the next reset). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/**
 * A NAL unit in AVCC form: its 4-byte big-endian length, the header byte, then the RBSP with emulation
 * prevention bytes inserted (7.4.1).
 */
export function nalUnit(refIdc: number, type: number, rbsp: Uint8Array): Uint8Array {
  // An emulation prevention byte goes before any byte <= 3 that follows two zero bytes; the zero run restarts after it.
  const at: number[] = [];
  for (let i = 0; ;) {
    const z = rbsp.indexOf(0, i);
    if (z < 0 || z + 2 >= rbsp.length) break;
    if (rbsp[z + 1] !== 0) i = z + 2;
    else if (rbsp[z + 2] <= 3) {
      at.push(z + 2);
      i = z + 2;
    } else i = z + 3;
  }
  const size = 1 + rbsp.length + at.length;
  const out = new Uint8Array(4 + size);
  new DataView(out.buffer).setUint32(0, size);
  out[4] = (refIdc << 5) | type;
  let from = 0;
  let o = 5;
  for (const j of at) {
    out.set(rbsp.subarray(from, j), o);
    o += j - from;
    out[o++] = 3;
    from = j;
  }
  out.set(rbsp.subarray(from), o);
  return out;
}
