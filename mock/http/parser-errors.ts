/**
 * Requests Node's HTTP parser refuses before the app sees them (a request
 * line and headers over `http.maxHeaderSize`, a byte HTTP does not allow in
 * the path or a header): Node would answer them itself with an empty body.
 * Here they get the error envelope like every other answer: 431
 * (HEADERS_TOO_LARGE, 10013) or 400 (MALFORMED_REQUEST, 10014), then the
 * connection closes, since the parser cannot find where the next request
 * starts. Both are transport errors every operation declares.
 */
import { maxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';

/** The raw HTTP/1.1 answer to a request the parser refused, the envelope of `error` as its body. */
export function parserErrorResponse(error: ErrorName, message: string): string {
  const { code, httpStatus } = errorCatalog[error];
  const body = JSON.stringify({ code, message, data: null });
  return [
    `HTTP/1.1 ${httpStatus} ${STATUS_CODES[httpStatus]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    // the request's Origin cannot be read; the answer carries no credentials, so any page may read it
    'Access-Control-Allow-Origin: *',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Makes `server` answer the requests its parser refuses with the error
 * envelope (see above); a connection reset or a socket no longer writable is
 * just closed, and a request timeout gets Node's usual bare 408. Returns `server`.
 */
export function answerParserErrors<S extends Server>(server: S): S {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    const answer =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? parserErrorResponse('HEADERS_TOO_LARGE', `the request line and headers are larger than ${maxHeaderSize / 1024} KiB, the most this server reads`)
        : parserErrorResponse(
            'MALFORMED_REQUEST',
            `the request cannot be parsed as HTTP (${err.code ?? 'parse error'}): send the path and headers in printable ASCII, percent-encoding anything else`,
          );
    socket.end(answer);
  });
  return server;
}
