/**
 * Requests Node's HTTP server refuses before the app sees them (a request
 * line and headers over `http.maxHeaderSize`, a byte HTTP does not allow in
 * the path or a header, a request line and headers slower than
 * `headersTimeout` or a request slower than `requestTimeout`): Node would
 * answer them itself with an empty body. Here they get the error envelope
 * like every other answer: 431 (HEADERS_TOO_LARGE, 10013), 400
 * (MALFORMED_REQUEST, 10014) or 408 (REQUEST_TIMEOUT, 10016), then the
 * connection closes, since the parser cannot find where the next request
 * starts. All three are transport errors every operation declares. A
 * `CONNECT` request (which Node hands to a 'connect' listener, or else drops
 * without an answer) gets 405 (METHOD_NOT_ALLOWED, 10005): the mock is no proxy.
 */
import { maxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';

/** Methods the mock answers on some path (the Allow of a CONNECT's 405). */
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, DELETE, OPTIONS';

/** The raw HTTP/1.1 answer to a request the parser refused, the envelope of `error` as its body, with `extra` header lines. */
export function parserErrorResponse(error: ErrorName, message: string, extra: string[] = []): string {
  const { code, httpStatus } = errorCatalog[error];
  const body = JSON.stringify({ code, message, data: null });
  return [
    `HTTP/1.1 ${httpStatus} ${STATUS_CODES[httpStatus]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    // the request's Origin cannot be read; the answer carries no credentials, so any page may read it
    'Access-Control-Allow-Origin: *',
    ...extra,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Makes `server` answer the requests its parser refuses, the requests too
 * slow to arrive and CONNECT with the error envelope (see above); a
 * connection reset, a socket no longer writable or one whose answer has
 * already begun is just closed. Returns `server`.
 */
export function answerParserErrors<S extends Server>(server: S): S {
  server.on('connect', (req: { url?: string }, socket: Duplex) => {
    if (!socket.writable) return void socket.destroy();
    socket.end(
      parserErrorResponse('METHOD_NOT_ALLOWED', `CONNECT ${String(req.url).slice(0, 200)}: this server is no proxy; allowed: ${ALLOWED_METHODS}`, [
        `Allow: ${ALLOWED_METHODS}`,
      ]),
    );
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    // an answer already under way cannot be followed by another one
    if ((socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) return void socket.destroy();
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      return void socket.end(
        parserErrorResponse(
          'REQUEST_TIMEOUT',
          `the request did not arrive in time (the request line and headers within ${server.headersTimeout / 1000} s, the whole request within ${server.requestTimeout / 1000} s)`,
        ),
      );
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
