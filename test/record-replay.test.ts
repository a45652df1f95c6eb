/**
 * Record and replay (docs/guides/proxy.md, "Recording a session" and
 * "Replaying offline"), without the internet: a client session over four areas
 * (video, image, music with its signed URLs, a podcast: polled to the end,
 * their media fetched) runs against an upstream mock while its exchanges go to
 * the recorder as the proxy hands them over (test/proxy-exchange.ts); the
 * upstream is stopped; a second mock, another seed, replays the file; the same
 * session runs against it. The statuses seen, the HTTP statuses and envelope
 * codes, and the media bytes (sha256) must be the same. The file must hold no
 * key, no Authorization value and no URL signature, and a changed file is refused.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createMock, defaultServices } from '../mock/index.ts';
import { createMockServer } from '../mock/http/app.ts';
import { createProxy } from '../mock/http/proxy/forward.ts';
import { readRecordingFile } from '../mock/http/recording/format.ts';
import { createRecorder, type RecordingSummary } from '../mock/http/recording/recorder.ts';
import { createReplay } from '../mock/http/recording/replay.ts';
import { imageBody, musicBody, pathOf, podcastBody, videoBody } from './factories.ts';
import { clientOf, type Client } from './proxy-exchange.ts';

const KEY = 'mg_rec_secret1';
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Every http(s) URL among the strings of `v`, in document order. */
function urls(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string' && /^https?:\/\//.test(v)) out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => urls(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => urls(x, out));
  return out;
}

/**
 * The session: each step's HTTP status and envelope code, each task's statuses as polled every 10 s
 * of the clock, and the sha256 of every media file its final answer points to.
 */
async function session(c: Client, advance: (ms: number) => Promise<void>): Promise<string[]> {
  const log: string[] = [];
  const step = async (name: string, method: string, path: string, body?: unknown) => {
    const r = await c.call(method, path, { body });
    log.push(`${name}: ${r.status} code ${r.json?.code}`);
    return r;
  };
  await step('subscription', 'GET', pathOf('getSubscription'));
  await step('video, invalid', 'POST', pathOf('createVideoTask'), { content: [] });
  const areas = [
    {
      name: 'video',
      create: pathOf('createVideoTask'),
      body: videoBody(),
      id: 'taskId',
      read: (id: string) => pathOf('getVideoTask', { taskId: id }),
      field: 'status',
    },
    {
      name: 'image',
      create: pathOf('createImageTask'),
      body: imageBody(),
      id: 'taskId',
      read: (id: string) => pathOf('getImageTask', { taskId: id }),
      field: 'status',
    },
    {
      name: 'music',
      create: pathOf('generateMusic'),
      body: musicBody(),
      id: 'taskId',
      read: (id: string) => pathOf('getMusicTask', { taskId: id }),
      field: 'status',
    },
    {
      name: 'podcast',
      create: pathOf('createPodcastEpisode'),
      body: podcastBody(),
      id: 'episodeId',
      read: (id: string) => pathOf('getPodcastEpisode', { episodeId: id }),
      field: 'processStatus',
    },
  ];
  const ids: Record<string, string> = {};
  for (const a of areas) ids[a.name] = (await step(`${a.name} create`, 'POST', a.create, a.body)).json.data[a.id];
  const last: Record<string, unknown> = {};
  for (let poll = 0; poll < 60 && Object.keys(last).length < areas.length; poll++) {
    await advance(10_000);
    for (const a of areas) {
      if (last[a.name]) continue;
      const r = await c.call('GET', a.read(ids[a.name]));
      const status = r.json?.data?.[a.field];
      log.push(`${a.name} poll ${poll}: ${r.status} code ${r.json?.code} ${status}`);
      if (['success', 'failed', 'fail'].includes(status)) last[a.name] = r.json.data;
    }
  }
  for (const a of areas)
    for (const url of urls(last[a.name])) {
      const m = await c.get(url);
      log.push(`${a.name} media ${new URL(url).pathname.split('.').pop()}: ${m.status} ${m.headers.get('content-type')} ${sha(m.bytes)}`);
    }
  await step('video delete', 'DELETE', pathOf('deleteVideoTask', { taskId: ids.video }));
  await step('video read after delete', 'GET', pathOf('getVideoTask', { taskId: ids.video }));
  return log;
}

describe('a session recorded through the proxy and replayed offline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mg-recording-'));
  const file = join(dir, 'session.json');
  let recorded: string[];
  let summary: RecordingSummary;

  beforeAll(async () => {
    const upstream = createMock({ seed: 1, strict: true });
    const base = await upstream.listen();
    const recorder = createRecorder({ file, upstream: base });
    try {
      recorded = await session(clientOf(base, KEY, { onExchange: recorder.observe, clock: () => upstream.now() }), async (ms) => void upstream.advance(ms));
      summary = await recorder.close();
    } finally {
      await upstream.close();
    }
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the replay gives the same statuses, codes and media bytes', async () => {
    const replay = createReplay(readRecordingFile(file));
    const mock = createMock({ seed: 99, strict: true, services: [...defaultServices, replay.service], intercept: replay.intercept });
    replay.load(mock.engine);
    const base = await mock.listen();
    try {
      const replayed = await session(clientOf(base, replay.owners[0].key), async (ms) => void mock.advance(ms));
      console.log(
        `[record-replay] recording ${summary.bytes} bytes: ${summary.exchanges} exchanges, ${summary.tasks} tasks, ${summary.mediaStored} media files (${summary.mediaBytes} bytes), ${summary.mediaNotStored} not stored; redacted ${summary.redactions.map((r) => `${r.what} x${r.count}`).join(', ')}; ${recorded.length} observations, ${replayed.filter((l, i) => l === recorded[i]).length} equal after replay`,
      );
      expect(replayed).toEqual(recorded);
      // the session saw every area to its end and fetched their media
      expect(recorded.filter((l) => / media /.test(l)).length).toBeGreaterThanOrEqual(5);
      for (const a of ['video', 'image', 'music', 'podcast']) expect(recorded.some((l) => l.startsWith(`${a} poll`) && / success$/.test(l))).toBe(true);
      expect(recorded).toContain('video read after delete: 400 code 31006');
      expect(mock.bugs()).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('the recorded tasks are there at start, owned by the mapped key, and move on the virtual clock', async () => {
    const rec = readRecordingFile(file);
    const replay = createReplay(rec);
    const mock = createMock({ seed: 5, services: [...defaultServices, replay.service], intercept: replay.intercept });
    replay.load(mock.engine);
    const base = await mock.listen();
    try {
      const video = rec.tasks.find((t) => t.operationId === 'createVideoTask')!;
      const owner = clientOf(base, replay.owners[0].key);
      const read = () => owner.call('GET', pathOf('getVideoTask', { taskId: video.taskId }));
      expect((await read()).json.data.status).toBe(video.statuses[0].status);
      mock.advance(video.statuses[video.statuses.length - 1].atMs);
      expect((await read()).json.data.status).toBe('success');
      // another key does not see it: the mock's own answer for a task it does not know
      expect((await clientOf(base, 'mg_someone_else1').call('GET', pathOf('getVideoTask', { taskId: video.taskId }))).json.code).toBe(31006);
    } finally {
      await mock.close();
    }
  });

  it('holds no key, no Authorization value and no URL signature, and says what it redacted', () => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/\bmg_/); // an image id (img_...) has it inside a word
    expect(text).toContain('img_');
    expect(text).not.toContain(KEY);
    expect(text).not.toMatch(/Bearer mg|"authorization"/i);
    expect(text).not.toMatch(/[?&]sig=[0-9a-f]/);
    expect(text).not.toMatch(/[?&]expires=\d/);
    const whats = readRecordingFile(file).redactions.map((r) => r.what);
    expect(whats).toContain('Authorization header');
    expect(whats).toContain('signed URL parameter (sig, signature, expires, token...)');
  });

  it('a changed file is refused, naming the file and the rule', () => {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...doc, version: 2 }));
    expect(() => readRecordingFile(bad)).toThrow(`${bad}: recording version 2 is not supported; this mock reads version 1`);
    doc.tasks[0].statuses[0].atMs = -5;
    writeFileSync(bad, JSON.stringify(doc));
    expect(() => readRecordingFile(bad)).toThrow(/bad\.json: tasks\.0\.statuses\.0\.atMs: .*>=0/);
    doc.tasks[0].statuses[0].atMs = 0;
    const [hash] = Object.keys(doc.blobs);
    doc.blobs[hash] = Buffer.from('not the recorded bytes').toString('base64');
    writeFileSync(bad, JSON.stringify(doc));
    expect(() => readRecordingFile(bad)).toThrow(`${bad}: blobs.${hash}: the bytes stored under this sha256 do not have it`);
    writeFileSync(bad, '{"format":"mediagen-recording",');
    expect(() => readRecordingFile(bad)).toThrow(`${bad} is not JSON`);
  });
});

describe('the same session through the proxy itself (--upstream with --record), replayed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mg-recording-proxy-'));
  const file = join(dir, 'session.json');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('records what the proxy forwards, and the replay gives the same statuses, codes and media bytes', async () => {
    const upstream = createMock({ seed: 1, strict: true });
    const base = await upstream.listen();
    const recorder = createRecorder({ file, upstream: base });
    // the proxy stamps each exchange with the upstream's (manual) clock, as it stamps a real upstream's with the wall clock
    const proxy = createProxy({ upstream: base, onExchange: recorder.observe, now: () => upstream.now() });
    const front = createMockServer({ clock: 'manual', strict: true, proxy });
    const server = front.app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', () => r()));
    let recorded: string[];
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      recorded = await session(clientOf(url, KEY), async (ms) => void upstream.advance(ms));
      expect(proxy.report().violationCount).toBe(0);
    } finally {
      await new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
      await upstream.close();
    }
    const summary = await recorder.close();
    expect(summary.exchanges).toBeGreaterThanOrEqual(20);
    expect(readFileSync(file, 'utf8')).not.toMatch(/\bmg_/);

    const replay = createReplay(readRecordingFile(file));
    const mock = createMock({ seed: 99, strict: true, services: [...defaultServices, replay.service], intercept: replay.intercept });
    replay.load(mock.engine);
    const replayBase = await mock.listen();
    try {
      const replayed = await session(clientOf(replayBase, replay.owners[0].key), async (ms) => void mock.advance(ms));
      console.log(
        `[record-replay, through the proxy] ${summary.bytes} bytes, ${summary.exchanges} exchanges; ${replayed.filter((l, i) => l === recorded[i]).length} of ${recorded.length} observations equal after replay`,
      );
      expect(replayed).toEqual(recorded);
      for (const a of ['video', 'image', 'music', 'podcast']) expect(recorded.some((l) => l.startsWith(`${a} poll`) && / success$/.test(l))).toBe(true);
    } finally {
      await mock.close();
    }
  });
});
