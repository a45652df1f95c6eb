/**
 * `npm run soak -- --state-load`: how long other requests wait while the mock
 * reads a state document up to its cap (PUT /__mock/state, --max-state-mb,
 * default 64 MiB; docs/architecture.md, "The control API"). Starts the mock as a
 * child process (`--clock manual --no-rate-limit --max-tasks 200000`), builds
 * documents of the sizes asked and PUTs each while a prober sends `GET
 * /__mock/health` every 20 ms on connections of its own:
 *
 * 1. a valid state of each size: finished video and image tasks (clones of
 *    real ones, with ids of their own) spread over 1,000 keys; it loads (200);
 * 2. the worst case of JSON, at the largest size: an array of empty objects
 *    where the journal's entries go (the most values a byte of JSON makes); it
 *    is refused (413) before it is parsed, being denser than one object per 16 bytes.
 *
 * It prints, for each, the PUT's time, its status, and the longest a health
 * check waited while it ran (and how many were sent), with the machine's load
 * average (the figures of a shared machine depend on it); and, after each
 * valid state loaded, the same for reading it back (GET /__mock/state, the
 * whole document, streamed). Target: about 1 s.
 *
 *   npm run soak -- --state-load [--mb N,M,...]   (the documents' sizes in MiB, default 36,59,63)
 *
 * Exits 0, or 1 when a health check waited more than 2 s or a PUT got another status.
 */
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { start, type Running } from './soak-sessions.ts';

const out = (s = '') => process.stdout.write(`${s}\n`);

/** Sends `body` with `method` to `path` on a connection of its own; resolves with the status, the text and the ms it took. */
function send(m: Running, method: string, path: string, body?: string): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: m.port, method, path, agent: false, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** PUTs `doc` while health checks are sent every 20 ms; returns the PUT's answer and the longest wait of a health check. */
async function putWhileProbing(m: Running, doc: string) {
  return whileProbing(m, () => send(m, 'PUT', '/__mock/state', doc));
}

/** Runs `work` (a request) while health checks are sent every 20 ms; returns its answer and the longest wait of a health check. */
async function whileProbing(m: Running, work: () => Promise<{ status: number; text: string; ms: number }>) {
  let stop = false;
  let longest = 0;
  let probes = 0;
  const prober = (async () => {
    while (!stop) {
      const r = await send(m, 'GET', '/__mock/health');
      probes++;
      longest = Math.max(longest, r.ms);
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  const put = await work();
  stop = true;
  await prober;
  return { put, longest, probes };
}

/** A valid state document of about `bytes`: the mock's own state with its finished tasks cloned under new ids and 1,000 owners. */
async function validState(m: Running, bytes: number): Promise<string> {
  const auth = { authorization: 'Bearer mg_soak1_secret' };
  // from a fresh state (not the one loaded before)
  await m.call('POST', '/__mock/reset', {}, {});
  await m.call('POST', '/v1/video-generation/generate', auth, { content: [{ type: 'text', text: 'a red fox running through snow at dawn' }] });
  await m.call('POST', '/v1/images/generation/async', auth, { provider: 'vendor_a', prompt: 'a red fox running through snow at dawn' });
  await m.call('POST', '/__mock/clock/advance', {}, { ms: 3_600_000 });
  const doc = (await m.call('GET', '/__mock/state')).json as {
    state: { stores: Record<string, { seq: number; entries: { id: string; owner: string; record: { id: string; owner: string } }[] }>; journal: unknown };
  };
  doc.state.journal = { entries: [], seq: 0 };
  const base = JSON.stringify(doc).length;
  const areas = ['video', 'image'] as const;
  const templates = areas.map((a) => doc.state.stores[a].entries[0]);
  // the text one clone adds: the template's, with an id and an owner of the clones' lengths, and a comma
  const per = templates.reduce((n, t) => n + JSON.stringify(t).length + 1 + 2 * (t.id.indexOf('_') + 17 - t.id.length) + 2 * (14 - t.owner.length), 0) / 2;
  const count = Math.floor((bytes - base) / per);
  for (const [i, area] of areas.entries()) {
    const t = templates[i];
    const entries = [];
    for (let n = 0; n < count / 2; n++) {
      const id = `${t.id.slice(0, t.id.indexOf('_'))}_${n.toString(16).padStart(16, '0')}`;
      const owner = `mg_s${n % 1000}_secret`;
      entries.push({ ...t, id, owner, record: { ...t.record, id, owner } });
    }
    doc.state.stores[area] = { seq: doc.state.stores[area].seq, entries };
  }
  return JSON.stringify(doc);
}

/** The state-load mode; `argv` are the soak's arguments (with --state-load). Returns the exit code. */
export async function soakState(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { 'state-load': { type: 'boolean' }, mb: { type: 'string', default: '36,59,63' } } });
  const sizes = String(values.mb)
    .split(',')
    .map((n) => Number(n) * 1024 * 1024);
  const m = await start(['--max-tasks', '200000', '--max-tasks-per-key', '200000']);
  let ok = true;
  try {
    for (const bytes of sizes) {
      const valid = await validState(m, bytes);
      const a = await putWhileProbing(m, valid);
      out(
        `valid state, ${(valid.length / 1024 / 1024).toFixed(1)} MiB: PUT ${a.put.status} in ${(a.put.ms / 1000).toFixed(2)} s; ` +
          `longest health check ${(a.longest / 1000).toFixed(2)} s over ${a.probes}; load average ${loadavg()[0].toFixed(1)}`,
      );
      if (a.put.status !== 200) out(`  ${a.put.text.slice(0, 300)}`);
      ok &&= a.put.status === 200 && a.longest <= 2000;
      // the read direction: GET the state just loaded (the whole document back)
      const r = await whileProbing(m, () => send(m, 'GET', '/__mock/state'));
      out(
        `  GET it back: ${r.put.status}, ${(r.put.text.length / 1024 / 1024).toFixed(1)} MiB in ${(r.put.ms / 1000).toFixed(2)} s; ` +
          `longest health check ${(r.longest / 1000).toFixed(2)} s over ${r.probes}; load average ${loadavg()[0].toFixed(1)}`,
      );
      ok &&= r.put.status === 200 && r.longest <= 2000;
    }
    const bytes = Math.max(...sizes);
    const junkCount = Math.floor((bytes - 200) / 3);
    const junk = `{"format":"mediagen-mock-state","version":1,"state":{"journal":{"entries":[${'{},'.repeat(junkCount - 1)}{}],"seq":0}}}`;
    const b = await putWhileProbing(m, junk);
    out(
      `${(junkCount / 1e6).toFixed(1)} million empty objects, ${(junk.length / 1024 / 1024).toFixed(1)} MiB: PUT ${b.put.status} in ${(b.put.ms / 1000).toFixed(2)} s; ` +
        `longest health check ${(b.longest / 1000).toFixed(2)} s over ${b.probes}; RSS peak ${m.peak().toFixed(0)} MB; load average ${loadavg()[0].toFixed(1)}`,
    );
    ok &&= b.put.status === 413 && b.longest <= 2000;
  } finally {
    await m.stop();
  }
  out(ok ? 'state-load: every target met' : 'state-load: a target was missed');
  return ok ? 0 : 1;
}
