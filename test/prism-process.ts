/**
 * One `prism proxy <document> <upstream> --errors` process: started on a free
 * port against a snapshot of the document in a temp directory (Prism watches
 * its file and restarts when `npm run build` rewrites spec/ in the middle of
 * a run), ready once it answers HTTP and has printed that it listens. Node
 * built-ins only: the Prism hub (test/prism-hub.ts) loads it in vitest's main
 * process, test/prism.ts in a worker.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PRISM_BIN = join(ROOT, 'node_modules', '.bin', 'prism');

/** A document for Prism: its file name (the extension says YAML or JSON) and its text. */
export interface PrismDocument {
  name: string;
  text: string;
}

export interface PrismProcess {
  /** Prism's base URL. */
  base: string;
  /** Prism's stdout and stderr so far. */
  log(): string;
  /** Stops Prism and removes the snapshot. */
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createNetServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolvePort(port));
    });
  });
}

/** Starts Prism's validation proxy on `doc` in front of `upstream` and waits until it answers (`startTimeoutMs`, default 30 000). */
export async function spawnPrism(doc: PrismDocument, upstream: string, startTimeoutMs = 30_000): Promise<PrismProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'prism-contract-'));
  const specPath = join(dir, doc.name);
  writeFileSync(specPath, doc.text);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(PRISM_BIN, ['proxy', specPath, upstream, '--errors', '-p', String(port), '-h', '127.0.0.1'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString('utf8')));
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const killChild = () => {
    if (exited === undefined) child.kill('SIGTERM');
  };
  process.once('exit', killChild);

  const close = async () => {
    killChild();
    await new Promise<void>((r) => (exited !== undefined ? r() : child.once('exit', () => r())));
    process.removeListener('exit', killChild);
    rmSync(dir, { recursive: true, force: true });
  };

  // Wait until Prism answers HTTP (any answer: a path outside the spec gets its 404 problem).
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exited !== undefined) {
      await close();
      throw new Error(`prism exited with ${exited} before answering:\n${output}`);
    }
    try {
      const r = await fetch(`${base}/__contract_ready`, { signal: AbortSignal.timeout(1000) });
      await r.text();
      if (/Prism is listening/.test(output)) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`prism did not answer within the start timeout:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, log: () => output, close };
}
