/**
 * multipart/form-data request bodies on Express, parsed by busboy straight
 * from the request stream into memory (nothing is written to disk) and judged
 * by the rules of mock/core/multipart.ts; a body over a limit is answered
 * after the rest of it is read and discarded.
 */
import busboy from 'busboy';
import type { Request } from 'express';
import type { ErrorName } from '../../schemas/errors.ts';
import type { MultipartBody } from '../../schemas/registry-types.ts';
import { encodedMultipart, multipartCollector, notMultipart } from '../core/multipart.ts';
import { ApiError } from '../engine/api-error.ts';

export { coerceFormFields } from '../core/multipart.ts';

/**
 * Reads a multipart/form-data body of `req` per `rules`: the file fields (one
 * file, or an array for a repeated field), and the text fields coerced.
 * Unknown file fields are read and dropped, like unknown JSON fields.
 * Errors: UNSUPPORTED_MEDIA_TYPE (not multipart/form-data, or with a Content-Encoding), MALFORMED_MULTIPART
 * (no boundary, truncated, a broken part), and those of multipartCollector.
 */
export function readMultipart(req: Request, rules: MultipartBody, validationError: ErrorName): Promise<Record<string, unknown>> {
  const wrongType = notMultipart(req.headers['content-type']) ?? encodedMultipart(req.headers['content-encoding']);
  // refused unread: Node reads the rest of the body off the connection once the answer is sent (it stays open)
  if (wrongType) return Promise.reject(wrongType);
  const c = multipartCollector(rules, validationError);
  const { largestFile, maxFiles, fields, fieldBytes } = c.limits;
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { fileSize: largestFile + 1, fieldSize: fieldBytes, fields, files: maxFiles + 50, parts: fields + maxFiles + 50 },
      });
    } catch (e) {
      reject(new ApiError('MALFORMED_MULTIPART', `multipart/form-data body cannot be read: ${(e as Error).message}`));
      return;
    }
    let settled = false;
    // Runs inside busboy's events: whatever it throws must reach the promise, never the event loop.
    const finish = () => {
      if (settled) return;
      settled = true;
      try {
        resolve(c.result());
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
    bb.on('file', (name, stream, info) => {
      // A body cut inside a file errors the file's stream (then busboy's own): unheard, it would end the process.
      stream.on('error', (e: Error) => c.fail(new ApiError('MALFORMED_MULTIPART', `multipart/form-data body cannot be read: ${e.message}`)));
      const sink = c.file(name, info.filename, info.mimeType);
      if (!sink) return void stream.resume();
      stream.on('data', (chunk: Buffer) => sink.data(chunk));
      stream.on('end', () => sink.end());
    });
    bb.on('field', (name, value, info) => c.field(name, value, info.valueTruncated));
    bb.on('filesLimit', () => c.fail(new ApiError(rules.limitError ?? 'PAYLOAD_TOO_LARGE', `too many files: at most ${maxFiles}`)));
    bb.on('fieldsLimit', () => c.fail(new ApiError(rules.limitError ?? 'PAYLOAD_TOO_LARGE', `too many text fields: at most ${fields}`)));
    bb.on('partsLimit', () => c.fail(new ApiError(rules.limitError ?? 'PAYLOAD_TOO_LARGE', 'too many parts in the multipart body')));
    bb.on('error', (e: Error) => {
      c.fail(new ApiError('MALFORMED_MULTIPART', `multipart/form-data body cannot be read: ${e.message}`));
      req.unpipe(bb);
      req.resume();
      finish();
    });
    bb.on('close', finish);
    req.on('aborted', () => {
      c.fail(new ApiError('MALFORMED_MULTIPART', 'the request was aborted before the multipart body ended'));
      finish();
    });
    req.pipe(bb);
  });
}
