/**
 * The "bare Express 5" server of `npm run bench`: the ceiling
 * of any Express mock. It answers the benchmarked routes with byte-identical
 * bodies (and the same status and headers) captured from the mock, with no
 * validation, no auth and no state. It does read the request body (any Express
 * mock must), but does not parse it.
 *
 *   node --import tsx scripts/bench-bare.ts <fixtures.json>
 *
 * fixtures.json: { port, routes: [{ method, path, status, headers, bodyBase64 }] }
 * where `path` is an Express 5 path (`/v1/video-generation/tasks/:taskId`).
 */
import { readFileSync } from 'node:fs';
import express from 'express';

/** One captured answer. */
export interface BareRoute {
  method: 'get' | 'post';
  path: string;
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

/** The fixtures file the bench writes for this server. */
export interface BareFixtures {
  port: number;
  routes: BareRoute[];
}

const fixtures = JSON.parse(readFileSync(process.argv[2], 'utf8')) as BareFixtures;
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
for (const r of fixtures.routes) {
  const body = Buffer.from(r.bodyBase64, 'base64');
  const handler = (_req: express.Request, res: express.Response) => {
    res.status(r.status);
    for (const [k, v] of Object.entries(r.headers)) res.setHeader(k, v);
    res.end(body);
  };
  if (r.method === 'post') app.post(r.path, express.raw({ type: () => true }), handler);
  else app.get(r.path, handler);
}
const server = app.listen(fixtures.port, '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
