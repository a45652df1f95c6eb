/**
 * The bare `node:http` server of `npm run bench`: the machine's ceiling for
 * any Node mock, below bare Express (scripts/bench-bare.ts). It answers the
 * benchmarked routes with the bytes captured from the mock (the same status
 * and headers, one writeHead and one end), with no framework, no validation,
 * no auth and no state; it does read the whole request body and parse it as
 * JSON (any mock must), and answers 400 to a body that does not parse.
 *
 *   node --import tsx scripts/bench-node.ts <fixtures.json>
 *
 * fixtures.json: the bare Express server's (BareFixtures): `path` an Express 5
 * path (`/v1/video-generation/tasks/:taskId`), a `:name` segment matching any
 * one segment.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { BareFixtures } from './bench-bare.ts';

const fixtures = JSON.parse(readFileSync(process.argv[2], 'utf8')) as BareFixtures;

/** A route: its method, its path as a pattern, and the answer's head and bytes. */
interface Answer {
  method: string;
  pattern: RegExp;
  status: number;
  head: string[];
  body: Buffer;
}

const answers: Answer[] = fixtures.routes.map((r) => ({
  method: r.method.toUpperCase(),
  pattern: new RegExp(`^${r.path.replace(/:\w+/g, '[^/]+')}/?$`),
  status: r.status,
  head: Object.entries(r.headers).flat(),
  body: Buffer.from(r.bodyBase64, 'base64'),
}));

const BAD = Buffer.from('{"code":10002,"message":"malformed JSON","data":null}');

/** Reads the whole body, parses it, then writes `a`. */
function answerWithBody(req: IncomingMessage, res: ServerResponse, a: Answer) {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return void res.writeHead(400, ['content-type', 'application/json', 'content-length', String(BAD.length)]).end(BAD);
    }
    res.writeHead(a.status, a.head).end(a.body);
  });
}

const server = createServer((req, res) => {
  const q = req.url!.indexOf('?');
  const path = q < 0 ? req.url! : req.url!.slice(0, q);
  for (const a of answers) {
    if (a.method !== req.method || !a.pattern.test(path)) continue;
    if (req.method === 'POST') return answerWithBody(req, res, a);
    return void res.writeHead(a.status, a.head).end(a.body);
  }
  res.writeHead(404, ['content-length', '0']).end();
});
server.listen(fixtures.port, '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
