/**
 * `parts` back to back in one new array (the bytes of a file assembled from
 * its pieces: PNG chunks, H.264 NAL units, an HLS segment's tag and frames,
 * the MP3 of several spoken lines, an upload's streamed chunks). One part is
 * still copied, so the result never aliases an input. Throws nothing.
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
