/**
 * The cold-start section of `npm run bench` (scripts/bench.ts): spawn to the
 * first 200 on GET /v1/user/subscription, for the installed command, the
 * sources through tsx, npm start and (unless left out) Prism; one warm-up start
 * of each, then interleaved runs.
 */
import { performance } from 'node:perf_hooks';
import { freePort } from '../bench-util.ts';
import { firstAnswer, NODE, PRISM_CLI, spawnServer, stop, TSX_CLI } from './processes.ts';

interface ColdVariant {
  name: string;
  note: string;
  cmd: string;
  args: (port: number) => string[];
  target: boolean;
}

/** Cold starts of each command, `runs` times after a warm-up (Prism's too when `prism`): ms to the first 200. */
export async function coldStart(runs: number, prism: boolean): Promise<{ name: string; note: string; ms: number[]; target: boolean }[]> {
  const mockFlags = (port: number) => ['--port', String(port), '--quiet'];
  const variants: ColdVariant[] = [
    {
      name: 'mock: node bin/mediagen-mock.js',
      note: 'the installed command and npm start, without npm itself (precompiled dist/cli.js)',
      cmd: NODE,
      args: (p) => ['bin/mediagen-mock.js', ...mockFlags(p)],
      target: true,
    },
    {
      name: 'mock: tsx mock/cli.ts',
      note: 'the sources through tsx (what the command falls back to in an edited checkout)',
      cmd: NODE,
      args: (p) => [TSX_CLI, 'mock/cli.ts', ...mockFlags(p)],
      target: false,
    },
    { name: 'mock: npm start', note: 'includes npm start-up', cmd: 'npm', args: (p) => ['start', '--silent', '--', ...mockFlags(p)], target: false },
  ];
  if (prism)
    variants.push({
      name: 'prism mock spec/openapi.yaml',
      note: 'static mode, default logging',
      cmd: NODE,
      args: (p) => [PRISM_CLI, 'mock', 'spec/openapi.yaml', '-p', String(p)],
      target: false,
    });

  // One warm-up start of each (fills tsx's transform cache and the OS file cache), then interleaved runs.
  const out = variants.map((v) => ({ name: v.name, note: v.note, ms: [] as number[], target: v.target }));
  for (let run = -1; run < runs; run++) {
    for (const [i, v] of variants.entries()) {
      // A second try on a fresh port if the first dies (another process took the port meanwhile).
      for (let attempt = 0; ; attempt++) {
        const port = await freePort();
        const t0 = performance.now();
        const child = spawnServer(v.cmd, v.args(port));
        try {
          const ms = await firstAnswer(child, port, '/v1/user/subscription', t0);
          if (run >= 0) out[i].ms.push(ms);
          break;
        } catch (e) {
          if (attempt > 0) throw e;
        } finally {
          await stop(child);
        }
      }
    }
  }
  return out;
}
