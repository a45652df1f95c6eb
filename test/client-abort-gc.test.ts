/**
 * A caller's abort reaches the typed client's request after a garbage
 * collection (client/retry.ts, `attemptOf`).
 *
 * Reads are retried by default, so each attempt is a copy of the caller's
 * request whose signal follows the caller's. In Node 20, when that copy was a
 * `clone()`, nothing held the link, and a collection dropped it. The caller's
 * abort then never reached the fetch, and a call to a server that stopped
 * answering waited for ever.
 *
 * Each case forces a full collection 50 ms in and aborts at 300 ms, with the
 * default retries and with `retry: false` (the request the call made is sent as
 * it is). The call must reject with the caller's reason. A hang fails the case
 * at vitest's time limit, however slow the machine.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../client/index.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A local server whose every request gets `answer` (which may never finish it); its base URL. */
async function serve(answer: (res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    answer(res);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Calls getSubscription (a read: retried by default) with a signal aborted at 300 ms, collecting at 50 ms; what it rejected with. */
async function abortedCall(baseUrl: string, retry?: false): Promise<unknown> {
  const client = createClient({ baseUrl, apiKey: 'mg_abortgc_secret1', ...(retry === false ? { retry } : {}) });
  const abort = new AbortController();
  const reason = new Error('the caller gave up');
  setTimeout(() => (gc(), gc()), 50);
  setTimeout(() => abort.abort(reason), 300);
  const error = await client.call('getSubscription', { signal: abort.signal }).then(
    () => 'answered',
    (e: unknown) => e,
  );
  expect(error).toBe(reason);
  return error;
}

describe("the caller's abort survives a garbage collection", () => {
  it('while the server has not answered at all', async () => {
    await abortedCall(await serve(() => {}));
  }, 30_000);

  it('while the body is read: headers sent, then nothing', async () => {
    await abortedCall(
      await serve((res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"code":0,');
      }),
    );
  }, 30_000);

  it('without retries (retry: false): the request the call made is sent as it is, headers sent, then nothing', async () => {
    await abortedCall(
      await serve((res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"code":0,');
      }),
      false,
    );
  }, 30_000);

  it('without retries (retry: false), while the server has not answered at all', async () => {
    await abortedCall(await serve(() => {}), false);
  }, 30_000);
});
