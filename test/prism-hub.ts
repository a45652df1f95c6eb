/**
 * vitest globalSetup: one Prism process per document for the whole run,
 * shared by every contract suite (test/prism.ts, `usePrism`), instead of one
 * per test file. Prism's start-up (a few seconds of CPU each) was paid
 * fourteen times; now once per document (the API document, the control
 * document, and the two altered copies two suites use).
 *
 * The hub is an HTTP server in vitest's main process with two roles:
 * - `POST /__hub/prism` with a document `{name, text}`: starts Prism on it
 *   (once per distinct document, on first request; later requests wait for
 *   the same start) with the hub as Prism's upstream, and answers
 *   `{prismBase}`; a start that fails answers 500 with Prism's output.
 * - Every other request is one Prism forwards: the hub passes it on, as is,
 *   to the test file's own upstream at `127.0.0.1:<x-contract-route>` (each
 *   file keeps its own mocks behind its own port) and streams the answer back.
 *
 * The workers find the hub through `inject('prismHub')`.
 */
import { createHash } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { spawnPrism, type PrismDocument, type PrismProcess } from './prism-process.ts';

/** Request header naming the port of the test file's upstream the hub forwards to. */
export const ROUTE_HEADER = 'x-contract-route';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the Prism hub (test/prism-hub.ts), when the config runs it. */
    prismHub?: string;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prisms = new Map<string, Promise<PrismProcess>>();
  let hubBase = '';

  async function startFor(req: IncomingMessage, res: ServerResponse) {
    try {
      const doc = JSON.parse(await readBody(req)) as PrismDocument;
      const key = createHash('sha256').update(doc.name).update('\0').update(doc.text).digest('hex');
      let p = prisms.get(key);
      if (!p) {
        p = spawnPrism(doc, hubBase, 120_000);
        prisms.set(key, p);
        // a failed start is not cached: the next file tries again (and reports its own failure)
        p.catch(() => prisms.delete(key));
      }
      const prism = await p;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ prismBase: prism.base }));
    } catch (e) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(e instanceof Error ? e.message : String(e));
    }
  }

  function forward(req: IncomingMessage, res: ServerResponse) {
    const port = Number(req.headers[ROUTE_HEADER]);
    if (!Number.isInteger(port) || port <= 0) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`prism hub: no ${ROUTE_HEADER} header on ${req.method} ${req.url}`);
      return;
    }
    const headers = { ...req.headers, host: `127.0.0.1:${port}` };
    const up = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, upRes.rawHeaders);
      upRes.pipe(res);
    });
    up.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`prism hub: upstream 127.0.0.1:${port}: ${e.message}`);
    });
    req.pipe(up);
  }

  const hub = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/__hub/prism') void startFor(req, res);
    else forward(req, res);
  });
  await new Promise<void>((r) => hub.listen(0, '127.0.0.1', () => r()));
  hubBase = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`;
  project.provide('prismHub', hubBase);

  return async () => {
    const started = await Promise.allSettled([...prisms.values()]);
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.close() : Promise.resolve())));
    hub.closeAllConnections();
    await new Promise<void>((r) => hub.close(() => r()));
  };
}
