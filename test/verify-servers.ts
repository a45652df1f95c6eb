/**
 * Servers the verifier meets in its tests (docs/guides/verify.md): a proxy in
 * front of the mock that applies one mutation (a realistic provider bug: it
 * may rewrite the request, the answer, or both), and hostile local servers
 * (silent, dripping, endless body, redirecting, dying mid-run).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { main } from '../verify/cli.ts';

/** What the proxy sees of a request. */
export interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** What the proxy passes on. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One provider bug: a request rewrite, an answer rewrite, or both (state lives in the closure of its factory). */
export interface Mutation {
  request?: (req: Exchange) => Exchange;
  answer?: (req: Exchange, reply: Reply) => Reply;
}

/** `reply` with its JSON body edited. */
export function editJson(reply: Reply, edit: (j: Record<string, any>) => void): Reply {
  if (!reply.headers['content-type']?.includes('json')) return reply;
  const j = JSON.parse(reply.body.toString()) as Record<string, any>;
  edit(j);
  return { ...reply, body: Buffer.from(JSON.stringify(j)) };
}

/** `req` with its JSON body edited (bodies that are not JSON pass unchanged). */
export function editRequest(req: Exchange, edit: (j: Record<string, any>) => Record<string, any>): Exchange {
  if (!req.body.length || !req.headers['content-type']?.includes('json')) return req;
  return { ...req, body: Buffer.from(JSON.stringify(edit(JSON.parse(req.body.toString()) as Record<string, any>))) };
}

export interface Listening {
  url: string;
  /** Requests received. */
  requests: number;
  close(): Promise<void>;
}

async function listen(server: Server, counter: { requests: number }): Promise<Listening> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const listening: Listening = Object.assign(counter, {
    url,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  });
  return listening;
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });

/** A proxy in front of `upstream` applying the mutation set with `use` (none: passes everything through). */
export async function mutatingProxy(upstream: string): Promise<Listening & { use(m: Mutation | undefined): void }> {
  let mutation: Mutation | undefined;
  const counter = { requests: 0 };
  const server = createServer((req, res) => {
    counter.requests++;
    void (async () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<
        string,
        string
      >;
      let ex: Exchange = { method: req.method!, path: req.url!, headers, body: await readBody(req) };
      ex = mutation?.request?.(ex) ?? ex;
      const up = await fetch(upstream + ex.path, {
        method: ex.method,
        headers: { ...ex.headers, 'x-forwarded-host': req.headers.host!, 'x-forwarded-proto': 'http' },
        body: ex.body.length ? new Uint8Array(ex.body) : undefined,
        redirect: 'manual',
      });
      let reply: Reply = {
        status: up.status,
        headers: Object.fromEntries([...up.headers].filter(([k]) => !['transfer-encoding', 'connection', 'content-encoding', 'content-length'].includes(k))),
        body: Buffer.from(await up.arrayBuffer()),
      };
      reply = mutation?.answer?.(ex, reply) ?? reply;
      res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.body.length) });
      res.end(reply.body);
    })().catch(() => res.destroy());
  });
  const l = await listen(server, counter);
  return Object.assign(l, { use: (m: Mutation | undefined) => void (mutation = m) });
}

/** A hostile server: `handle` answers (or not) each request. */
export async function hostile(handle: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<Listening> {
  const counter = { requests: 0 };
  const server = createServer((req, res) => {
    counter.requests++;
    req.resume();
    handle(req, res, counter.requests);
  });
  return listen(server, counter);
}

/** Accepts every request and never answers. */
export const silent = () => hostile(() => {});

/** Answers 200 JSON headers, then a byte every `everyMs`, forever. */
export const dripping = (everyMs = 200) =>
  hostile((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    const t = setInterval(() => res.write(' '), everyMs);
    res.on('close', () => clearInterval(t));
  });

/** Answers 200 JSON with a body that never ends, as fast as the socket takes it. */
export const endless = () =>
  hostile((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    res.write('{"data":"');
    pump();
  });

/** Redirects every request (302) to the same path on `target`. */
export const redirecting = (target: string) =>
  hostile((req, res) => {
    res.writeHead(302, { location: target + req.url });
    res.end();
  });

/** A proxy in front of `upstream` that dies (closes its port and every connection) at its `after`-th request. */
export async function dyingProxy(upstream: string, after: number): Promise<Listening> {
  const p = await mutatingProxy(upstream);
  let dead = false;
  p.use({
    request: (req) => {
      if (p.requests >= after && !dead) {
        dead = true;
        void p.close();
      }
      return req;
    },
  });
  return p;
}

/** Runs the mediagen-verify command in-process: its exit status and what it printed (stdout and stderr). */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ status: number; out: string }> {
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  const saved = { ...process.env };
  Object.assign(process.env, env);
  process.stdout.write = (s: string) => (out.push(s), true);
  process.stderr.write = (s: string) => (out.push(s), true);
  try {
    return { status: await main(['node', 'mediagen-verify', ...args]), out: out.join('') };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
    process.env = saved;
  }
}
