/**
 * waitFor (client/wait.ts) on every create with `x-lifecycle`, in-process and
 * over HTTP: it polls the declared read first after the declared firstPollMs,
 * then every intervalMs (the waits are the client clock's, which moves the
 * mock's virtual clock: no real waiting), reports each change of status, and
 * resolves with the task in its success state; a task forced to fail
 * (`Prefer: outcome=failed, error=<code>`) rejects with a TaskFailedError named
 * after the failure's catalogue entry; the timeout, an AbortSignal, and a poll
 * answered 429 or 503 (Retry-After honoured) behave as documented. The
 * expected intervals, states and codes come from the document (x-lifecycle,
 * x-error-catalog) or are written by hand, not from the client's data module.
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import spec from '../spec/openapi.json' with { type: 'json' };
import { isApiError, TaskFailedError, WaitTimeoutError, type LifecycleOperationId } from '../client/index.ts';
import { clientHarness, transports, type ClientHarness } from './client-harness.ts';

interface DeclaredLifecycle {
  statusField: string;
  success: string;
  terminal: string[];
  states: string[];
  pollOperationId: string;
  firstPollMs: number;
  intervalMs: number;
  timeoutMs: number;
  example: Record<string, unknown>;
  continues?: { operationId: string; bodyField?: string };
  exampleFiles?: Record<string, unknown>;
}
const declared: Record<string, DeclaredLifecycle> = {};
for (const item of Object.values(spec.paths as Record<string, Record<string, { operationId?: string; 'x-lifecycle'?: DeclaredLifecycle }>>))
  for (const op of Object.values(item)) if (op?.operationId && op['x-lifecycle']) declared[op.operationId] = op['x-lifecycle'];
// the creates sent with their example as a JSON body (a later stage needs its earlier one's task; a clone, its recording)
const lifecycleOps = Object.keys(declared).filter((op) => !declared[op].continues && !declared[op].exampleFiles) as LifecycleOperationId[];

/** A failure each area's task can be forced into, by hand from the catalogue (schemas/errors.ts): code and name. */
const failures: Record<string, [number, string] | undefined> = {
  createVideoTask: [31009, 'VIDEO_CONTENT_REJECTED'],
  createPlatformVoiceTask: [33003, 'GEN_AUDIO_UNAVAILABLE'],
  createSeedAudioTask: [33008, 'GEN_AUDIO_TIMED_OUT'],
  createLyricsTask: [38005, 'LYRICS_GENERATION_FAILED'],
  createExtraction: [41008, 'EXTRACTION_PAGE_UNREACHABLE'],
  generateMusic: [39011, 'MUSIC_GENERATION_FAILED'],
  createFamily5VideoTask: [32003, 'F5_PROVIDER_ERROR'],
  createFlowSpeechEpisode: [35008, 'SPEECH_GENERATION_FAILED'],
  createFlowSpeechTtsEpisode: [35008, 'SPEECH_GENERATION_FAILED'],
  createPodcastEpisode: [37008, 'PODCAST_GENERATION_FAILED'],
  createPodcastTextContent: [37008, 'PODCAST_GENERATION_FAILED'],
  createStorybookEpisode: [40008, 'STORYBOOK_GENERATION_FAILED'],
  // an image task's provider failure carries a message and no code (ImageTask: failMsg; failReason only on the free lane)
  createImageTask: undefined,
};

let h: ClientHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(transports)('waitFor (%s)', (transport) => {
  it('covers every create with x-lifecycle in the document', () => {
    expect(lifecycleOps.length).toBeGreaterThanOrEqual(7);
    expect(Object.keys(failures).sort()).toEqual(expect.arrayContaining([...lifecycleOps].filter((op) => op in failures).sort()));
  });

  it.each(lifecycleOps)('%s: polls at the declared times and resolves with the succeeded task', async (op) => {
    const lc = declared[op];
    h = await clientHarness(transport);
    const created = await h.client.call(op, { body: lc.example });
    const statuses: string[] = [];
    const task = (await h.client.waitFor(created, { onProgress: (_t, s) => statuses.push(s) })) as Record<string, unknown>;
    expect(task[lc.statusField]).toBe(lc.success);
    // the first wait is firstPollMs, every later one intervalMs
    expect(h.sleeps[0]).toBe(lc.firstPollMs);
    expect(h.sleeps.slice(1).every((ms) => ms === lc.intervalMs)).toBe(true);
    // one read per wait, counted by the mock's journal
    const polls = (await h.control.countRequests({ query: { operationId: lc.pollOperationId } })) as { count: number };
    expect(polls.count).toBe(h.sleeps.length);
    // each status once, in order, ending with the success state; all declared states
    expect(statuses.at(-1)).toBe(lc.success);
    expect(new Set(statuses).size).toBe(statuses.length);
    for (const s of statuses) expect(lc.states).toContain(s);
  });

  it.each(['createPodcastAudio', 'createStorybookVideo'] as const)('%s: a later stage is waited for by the id of its earlier stage', async (op) => {
    const lc = declared[op];
    const earlier = lc.continues!.operationId as LifecycleOperationId;
    h = await clientHarness(transport);
    const first = (await h.client.waitFor(await h.client.call(earlier, { body: declared[earlier].example as never }))) as { episodeId: string };
    await h.client.call(op, { params: { path: { episodeId: first.episodeId } }, body: lc.example });
    const task = (await h.client.waitFor(op, first.episodeId)) as Record<string, unknown>;
    expect(task[lc.statusField]).toBe(lc.success);
  });

  // the page deck's video answers { success: true }, without the episode's id: the id is the one its request named
  it.each(['createPodcastAudio', 'createStorybookVideo'] as const)('%s: waitFor(created) waits for the episode its request named', async (op) => {
    const lc = declared[op];
    const earlier = lc.continues!.operationId as LifecycleOperationId;
    h = await clientHarness(transport);
    const first = (await h.client.waitFor(await h.client.call(earlier, { body: declared[earlier].example as never }))) as { episodeId: string };
    const before = h.sleeps.length;
    const created = await h.client.call(op, { params: { path: { episodeId: first.episodeId } }, body: lc.example });
    const task = (await h.client.waitFor(created)) as Record<string, unknown>;
    expect(task.episodeId).toBe(first.episodeId);
    expect(task[lc.statusField]).toBe(lc.success);
    // a create answer just received: the first poll after the declared firstPollMs
    expect(h.sleeps[before]).toBe(lc.firstPollMs);
  });

  it('createStorybookVideo: its answer carries no episodeId (what the test above relies on)', async () => {
    h = await clientHarness(transport);
    const first = (await h.client.waitFor(await h.client.call('createStorybookEpisode', { body: declared.createStorybookEpisode.example as never }))) as {
      episodeId: string;
    };
    const created = await h.client.call('createStorybookVideo', {
      params: { path: { episodeId: first.episodeId } },
      body: declared.createStorybookVideo.example as never,
    });
    expect(JSON.parse(JSON.stringify(created))).toEqual({ success: true });
  });

  it.each(lifecycleOps)('%s: a task that fails rejects with a TaskFailedError of its catalogue entry', async (op) => {
    const lc = declared[op];
    const failure = failures[op];
    h = await clientHarness(transport);
    const headers = { Prefer: failure ? `outcome=failed, error=${failure[0]}` : 'outcome=failed' };
    const created = await h.client.call(op, { body: lc.example, headers });
    const error: unknown = await h.client.waitFor(created).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    const e = error as TaskFailedError<Record<string, unknown>>;
    expect(lc.terminal).toContain(e.task[lc.statusField]);
    expect(e.task[lc.statusField]).not.toBe(lc.success);
    expect(e.operationId).toBe(op);
    expect(e.message.length).toBeGreaterThan(0);
    if (failure) {
      expect(e.code).toBe(failure[0]);
      expect(e.name).toBe(failure[1]);
      expect(isApiError(e, failure[1] as never)).toBe(true);
    } else {
      expect(e.name).toBe('TaskFailedError');
      expect(e.code).toBeUndefined();
    }
  });

  it('waitFor(op, id) waits for a task by its id, the first poll at once', async () => {
    h = await clientHarness(transport);
    const created = await h.client.call('createVideoTask', { body: declared.createVideoTask.example as never });
    // the id alone, as a caller keeps it (a page reload, another tab)
    const taskId: string = created.taskId;
    const task = await h.client.waitFor('createVideoTask', taskId, { intervalMs: 20_000 });
    expectTypeOf(task.status).toEqualTypeOf<'success'>();
    expect(task.status).toBe('success');
    expect(h.sleeps.length).toBeGreaterThan(0);
    expect(h.sleeps.every((ms) => ms === 20_000)).toBe(true);
    // a poll before the first wait, then one after each
    expect(((await h.control.countRequests({ query: { operationId: 'getVideoTask' } })) as { count: number }).count).toBe(h.sleeps.length + 1);
  });

  it('gives up after the timeout with a WaitTimeoutError holding the last task read (a task that never progresses)', async () => {
    h = await clientHarness(transport);
    const created = await h.client.call('createImageTask', { body: declared.createImageTask.example as never, headers: { Prefer: 'outcome=stuck' } });
    const error: unknown = await h.client.waitFor(created, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError<{ status: string }>).task.status).not.toBe('success');
    // waited exactly the timeout (5 s polls: 12 of them), no more
    expect(h.sleeps.reduce((a, b) => a + b, 0)).toBe(60_000);
    expect(h.sleeps).toHaveLength(12);
  });

  it('stops when its AbortSignal aborts, rejecting with the reason', async () => {
    h = await clientHarness(transport);
    const created = await h.client.call('createVideoTask', { body: declared.createVideoTask.example as never });
    const abort = new AbortController();
    const reason = new Error('the user left the page');
    const error: unknown = await h.client.waitFor(created, { signal: abort.signal, onProgress: () => abort.abort(reason) }).catch((e: unknown) => e);
    expect(error).toBe(reason);
    // one poll, then the abort: no second poll
    expect(((await h.control.countRequests({ query: { operationId: 'getVideoTask' } })) as { count: number }).count).toBe(1);
  });
});

describe.each(transports)('waitFor through a busy service (%s)', (transport) => {
  it.each([429, 503])('a poll answered %i waits its Retry-After and polls again', async (status) => {
    let busy = 2;
    // the reads of the task answer `status` twice (a gateway in front of the service; the mock declares no 429 on reads)
    h = await clientHarness(
      transport,
      { retry: false },
      (send) => (r) =>
        r.method === 'GET' && busy-- > 0
          ? Promise.resolve(new Response(JSON.stringify({ code: 29998, message: 'busy', data: null }), { status, headers: { 'Retry-After': '7' } }))
          : send(r),
    );
    const created = await h.client.call('createLyricsTask', { body: { prompt: 'a summer road trip with old friends' } });
    const task = await h.client.waitFor(created);
    expect(task.status).toBe('success');
    expect(h.sleeps.slice(0, 3)).toEqual([declared.createLyricsTask.firstPollMs, 7_000, 7_000]);
  });
});
