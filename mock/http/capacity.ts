/**
 * The process's capacity for concurrent work (docs/architecture.md, "The
 * request path"): bytes of request bodies in flight and open event streams,
 * shared by the default world and every session. A request that would pass
 * either cap is answered 503 (SERVER_BUSY, 10019) with Retry-After, a
 * transport error every operation with a body or an event stream declares.
 */

/** Default caps (assumed): 256 MiB of bodies in flight, 1,000 open event streams. */
export const DEFAULT_CAPACITY = { maxInflightBodyBytes: 256 * 1024 * 1024, maxStreams: 1000 } as const;

export class Capacity {
  /** Bytes of request bodies reserved now. */
  bodyBytes = 0;
  /** Event streams open now. */
  streams = 0;

  constructor(
    readonly maxBodyBytes: number = DEFAULT_CAPACITY.maxInflightBodyBytes,
    readonly maxStreams: number = DEFAULT_CAPACITY.maxStreams,
  ) {}

  /**
   * Reserves `bytes` of body for one request; false, reserving nothing, when
   * that would pass the cap (a body larger than the cap alone is taken when
   * nothing else is in flight, so every body an operation accepts can arrive).
   */
  reserveBody(bytes: number): boolean {
    if (this.bodyBytes > 0 && this.bodyBytes + bytes > this.maxBodyBytes) return false;
    this.bodyBytes += bytes;
    return true;
  }

  /** Gives back a reservation of `reserveBody`. */
  releaseBody(bytes: number): void {
    this.bodyBytes = Math.max(0, this.bodyBytes - bytes);
  }

  /** Counts one more open stream; false when `maxStreams` are open. */
  openStream(): boolean {
    if (this.streams >= this.maxStreams) return false;
    this.streams++;
    return true;
  }

  /** Counts a stream closed. */
  closeStream(): void {
    this.streams = Math.max(0, this.streams - 1);
  }
}

/** The message of a 503 for a stream beyond the cap. */
export const streamsBusy = (capacity: Capacity) =>
  `${capacity.maxStreams} event streams are open, the most this mock serves at once (--max-streams); retry later`;
