/**
 * The podcast text stream (document 2, "Podcast", "Events"): read while the
 * clock advances, late, on a failing episode, on the real clock, through a real
 * SSE client library (the eventsource package); its refusals.
 */
import { EventSource } from 'eventsource';
import { beforeEach, describe, expect, it } from 'vitest';
import { podcastModePlans } from '../schemas/podcast.ts';
import { pathOf, podcastBody } from './factories.ts';
import { KEY, readEventStream, type TestMock, useMocks } from './helpers.ts';
import { expectError, MINUTE, podcastCalls, textMs } from './podcast-helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});
const { oneShot, get } = podcastCalls(() => m);

describe('the text stream', () => {
  const streamPath = (id: string, event: string) => pathOf('streamPodcastText', { episodeId: id }, { event });
  const auth = { authorization: `Bearer ${KEY}` };

  it('a client connected early receives the script line by line as the clock advances, then done, then the stream closes', async () => {
    const plan = podcastModePlans.quick;
    const id = await oneShot();
    const seen: number[] = [];
    let received: unknown[] = [];
    let advancing = Promise.resolve();
    const stream = readEventStream(m.base, streamPath(id, 'script'), {
      headers: auth,
      onOpen: () => {
        // step the clock line by line; after each step, count what arrived
        advancing = (async () => {
          await m.advance(textMs('quick') - plan.lines * plan.lineMs);
          for (let i = 0; i < plan.lines; i++) {
            await m.advance(plan.lineMs);
            // wait for this step's line to arrive (the manual clock sends nothing more until the next step), however
            // slow the machine; a limit only against a hang
            for (const until = Date.now() + 60_000; received.length < i + 1 && Date.now() < until;) await new Promise((r) => setTimeout(r, 10));
            seen.push(received.length);
          }
        })();
      },
      stop: (events) => {
        received = events;
        return false;
      },
    });
    const out = await stream;
    await advancing;
    expect(out.status).toBe(200);
    expect(out.contentType).toMatch(/^text\/event-stream/);
    expect(out.ended).toBe(true);
    // one more line after each step; done with the last one
    expect(seen.slice(0, -1)).toEqual(Array.from({ length: plan.lines - 1 }, (_, i) => i + 1));
    expect(out.events.map((e) => e.event)).toEqual([...Array(plan.lines).fill('script'), 'done']);
    const ep = await get(id);
    expect(out.events.slice(0, -1).map((e) => e.data)).toEqual(ep.scripts.map((l: object, index: number) => ({ index, ...l })));
    expect(out.events.at(-1)!.data).toEqual({ episodeId: id, complete: true, count: plan.lines, failCode: 0 });
  });

  it('a client connected late receives everything at once; event=outline streams the outline items', async () => {
    const id = await oneShot(podcastBody({ mode: 'deep' }));
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    const script = await readEventStream(m.base, streamPath(id, 'script'), { headers: auth });
    expect(script.ended).toBe(true);
    expect(script.events).toHaveLength(podcastModePlans.deep.lines + 1);
    const outline = await readEventStream(m.base, streamPath(id, 'outline'), { headers: auth });
    expect(outline.events.map((e) => e.event)).toEqual([...Array(podcastModePlans.deep.outlineItems).fill('outline'), 'done']);
    expect(
      outline.events
        .slice(0, -1)
        .map((e) => `${e.data.index + 1}. ${e.data.content}`)
        .join('\n'),
    ).toBe(ep.outline);
  });

  it('a failing episode: the lines written before the failure, then done with complete false and the failCode', async () => {
    const id = await oneShot(podcastBody(), { prefer: 'outcome=failed, error=37009' });
    await m.advance(10 * MINUTE);
    const out = await readEventStream(m.base, streamPath(id, 'script'), { headers: auth });
    const half = podcastModePlans.quick.lines / 2;
    expect(out.events.map((e) => e.event)).toEqual([...Array(half).fill('script'), 'done']);
    expect(out.events.at(-1)!.data).toEqual({ episodeId: id, complete: false, count: half, failCode: 37009 });
  });

  it.each([
    ['', podcastModePlans.quick.lines, true],
    ['outcome=failed', podcastModePlans.quick.lines / 2, false],
  ])('on a real clock (200x) the lines arrive over time without a clock call (Prefer: %s), then done', async (prefer, count, complete) => {
    // the real clock reads a wall the test moves (the stream's own timers wake it, as on Date.now), so what arrives
    // after each step is counted, not timed: however slow the machine, one more line per step
    const wall0 = Date.now();
    let wall = wall0;
    const real = await start({ clock: 'real', wallNow: () => wall, speed: 200 });
    const r = await real.call('POST', pathOf('createPodcastEpisode'), { body: podcastBody(), headers: prefer ? { prefer } : {} });
    const plan = podcastModePlans.quick;
    let scripts = 0;
    const seen: number[] = [];
    let stepping = Promise.resolve();
    const stream = readEventStream(real.base, streamPath(r.json.data.episodeId, 'script'), {
      headers: auth,
      timeoutMs: 120_000,
      stop: (events) => ((scripts = events.filter((e) => e.event === 'script').length), false),
      onOpen: () => {
        stepping = (async () => {
          for (let i = 0; i < count; i++) {
            // the wall time at which line i is written (virtual ms / 200, rounded up)
            wall = wall0 + Math.ceil((textMs('quick') - (plan.lines - i - 1) * plan.lineMs) / 200);
            for (const until = Date.now() + 60_000; scripts < i + 1 && Date.now() < until;) await new Promise((r) => setTimeout(r, 10));
            seen.push(scripts);
          }
          wall = wall0 + Math.ceil((textMs('quick') + 10 * MINUTE) / 200); // past the end of the text stage
        })();
      },
    });
    const out = await stream;
    await stepping;
    expect(out.ended).toBe(true);
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(out.events.filter((e) => e.event === 'script')).toHaveLength(count);
    expect(out.events.at(-1)!.data).toMatchObject({ complete, count });
  });

  it('an unknown or missing event -> 400 (37001); no key -> 401', async () => {
    const id = await oneShot();
    for (const path of [streamPath(id, 'audio'), pathOf('streamPodcastText', { episodeId: id })]) {
      const r = await m.call('GET', path);
      expectError(r, 'PODCAST_INVALID_PARAMETERS');
      expect(r.json.message).toContain('event');
    }
    expectError(await m.call('GET', streamPath(id, 'script'), { key: null }), 'UNAUTHORIZED');
  });

  it('the eventsource package (the WHATWG EventSource API) receives the script line by line', async () => {
    const id = await oneShot();
    const plan = podcastModePlans.quick;
    const lines: { index: number; content: string }[] = [];
    const es = new EventSource(m.base + streamPath(id, 'script'), {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...auth } }),
    });
    const opened = new Promise<void>((resolve, reject) => {
      es.onopen = () => resolve();
      es.onerror = (e) => reject(new Error(`EventSource error: ${e.message ?? ''}`));
    });
    const finished = new Promise<{ complete: boolean }>((resolve) => {
      es.addEventListener('done', (e) => {
        es.close();
        resolve(JSON.parse(e.data));
      });
    });
    es.addEventListener('script', (e) => lines.push(JSON.parse(e.data)));
    await opened;
    await m.advance(textMs('quick') - plan.lines * plan.lineMs);
    const counts: number[] = [];
    for (let i = 0; i < plan.lines; i++) {
      await m.advance(plan.lineMs);
      // wait for this step's line (nothing more arrives until the next step), however slow the machine
      for (const until = Date.now() + 60_000; lines.length < i + 1 && Date.now() < until;) await new Promise((r) => setTimeout(r, 10));
      counts.push(lines.length);
    }
    expect((await finished).complete).toBe(true);
    expect(counts).toEqual(Array.from({ length: plan.lines }, (_, i) => i + 1));
    expect(lines.map((l) => l.index)).toEqual(Array.from({ length: plan.lines }, (_, i) => i));
  });
});
