/**
 * The process's capacity for concurrent work (docs/architecture.md, "The
 * request path"): bytes of request bodies in flight and open event streams,
 * shared by the default world and every session. A request that would pass
 * either cap is answered 503 (SERVER_BUSY, 10019) with Retry-After, a
 * transport error every operation with a body or an event stream declares.
 *
 * A body is judged before a byte of it is read (`admitBody`): past its
 * operation's cap (a state document: --max-state-mb) it is answered 413 at
 * once from its Content-Length, never reserved nor read; a chunked one
 * reserves its cap and is cut off at it while streaming.
 */
import { MAX_STATE_BYTES } from '../../schemas/control.ts';
import { bodyLimitOf } from '../core/request-body.ts';
import type { OperationDef } from '../../schemas/registry-types.ts';

/** Default caps (assumed): 256 MiB of bodies in flight, 1,000 open event streams. */
export const DEFAULT_CAPACITY = { maxInflightBodyBytes: 256 * 1024 * 1024, maxStreams: 1000 } as const;

export class Capacity {
  /** Bytes of request bodies reserved now. */
  bodyBytes = 0;
  /** Event streams open now. */
  streams = 0;

  /**
   * @param maxBodyBytes bytes of bodies in flight at once (--max-inflight-body-mb)
   * @param maxStreams event streams open at once (--max-streams)
   * @param maxStateBytes the largest state document PUT /__mock/state reads (--max-state-mb)
   */
  constructor(
    readonly maxBodyBytes: number = DEFAULT_CAPACITY.maxInflightBodyBytes,
    readonly maxStreams: number = DEFAULT_CAPACITY.maxStreams,
    readonly maxStateBytes: number = MAX_STATE_BYTES,
  ) {}

  /** The most bytes a JSON or form body of operation `operationId` may have here: the state's cap for putState, else the operation's limit. */
  limitOf(operationId: string, op: OperationDef): number {
    return operationId === 'putState' ? this.maxStateBytes : bodyLimitOf(op);
  }

  /**
   * Judges a body before it is read, from its headers: `too-large` (nothing
   * reserved) when `whole` (a JSON or form body, read whole) and its
   * Content-Length passes `maxBytes` (a multipart body is judged part by part
   * as it streams, by the limits its operation names); `busy` (nothing
   * reserved) when it would pass the cap of bodies in flight; else the bytes
   * reserved (its Content-Length, or `maxBytes` when chunked; 0 without a
   * body, RFC 9112 section 6.3), to give back with `releaseBody`.
   */
  admitBody(contentLength: string | undefined, chunked: boolean, maxBytes: number, whole: boolean): { reserved: number } | 'too-large' | 'busy' {
    const length = contentLength === undefined ? Number.NaN : Number(contentLength);
    if (whole && length > maxBytes) return 'too-large';
    const bytes = Number.isFinite(length) && length >= 0 ? Math.min(length, maxBytes) : chunked ? maxBytes : 0;
    if (bytes === 0) return { reserved: 0 };
    return this.reserveBody(bytes) ? { reserved: bytes } : 'busy';
  }

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

/** The message of a 413 for a body whose Content-Length passes its cap. */
export const bodyTooLargeMessage = (operationId: string, maxBytes: number, length: string | undefined) =>
  operationId === 'putState'
    ? `the state document is ${length} bytes, more than the ${maxBytes} bytes (${Math.floor(maxBytes / 1024 / 1024)} MiB) this mock reads (--max-state-mb); nothing was read or loaded`
    : `request body is ${length} bytes, larger than the ${maxBytes} bytes this operation accepts`;

/** The message of a 503 for a stream beyond the cap. */
export const streamsBusy = (capacity: Capacity) =>
  `${capacity.maxStreams} event streams are open, the most this mock serves at once (--max-streams); retry later`;
