/**
 * The video example of docs/guides/frontend.md ("The client's helpers"), both
 * versions as the guide prints them (read from the guide, so they cannot drift):
 * openapi-fetch alone ("before") and the helpers ("after"), run in-process and
 * over HTTP on four paths, the waits on the mock's virtual clock: a video that
 * succeeds is shown, an account without credits is sent to buy some, a video
 * that fails is an error, and a sixth create in a minute waits out the rate
 * limit. Both versions must behave the same; their lines of caller code are
 * counted (the figure the guide gives).
 */
import { readFileSync } from 'node:fs';
import { transform } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, isApiError } from '../client/index.ts';
import { createMock } from '../mock/index.ts';
import { clientHarness, CLIENT_KEY, transports, type ClientHarness } from './client-harness.ts';

const guide = readFileSync(new URL('../docs/guides/frontend.md', import.meta.url), 'utf8');
const start = guide.indexOf("### The client's helpers");
const section = guide.slice(start, guide.indexOf('\n### ', start + 1));
const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
const snippet = (tag: string) => blocks.find((b) => b.startsWith(`// ${tag}`))!;
/** Lines of caller code: neither blank nor a comment. */
const callerLines = (code: string) => code.split('\n').filter((l) => l.trim() && !l.trim().startsWith('//')).length;

type Outcome = { shown: string[]; buy: number; errors: unknown[] };
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;

/** Runs a snippet of the guide with its free names bound: the client, the body, the app's show functions, a sleep and now on the mock's clock. */
async function runSnippet(code: string, h: ClientHarness, plain: ClientHarness['client']): Promise<Outcome> {
  const { code: js } = await transform(code, { loader: 'ts' });
  const out: Outcome = { shown: [], buy: 0, errors: [] };
  const body = { model: 'family1-video-2-fast', content: [{ type: 'text', text: 'a fox in the snow' }] };
  const names = ['client', 'body', 'sleep', 'now', 'show', 'showBuyCredits', 'showError', 'isApiError'];
  await new AsyncFunction(...names, js)(
    code.startsWith('// before') ? plain : h.client,
    body,
    async (ms: number) => void (await h.control.advanceClock({ body: { ms } })),
    () => h.mock.now(),
    (url: string) => out.shown.push(url),
    () => out.buy++,
    (e: unknown) => out.errors.push(e),
    isApiError,
  );
  return out;
}

let h: ClientHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(transports)("the guide's video example, before and after (%s)", (transport) => {
  const paths: [string, (h: ClientHarness) => Promise<void>, (o: Outcome) => void][] = [
    [
      'a video that succeeds is shown',
      async () => {},
      (o) => expect(o).toEqual({ shown: [expect.stringMatching(/\/media\/videos\/vt_\w+\.mp4$/)], buy: 0, errors: [] }),
    ],
    [
      'an account without credits is sent to buy some',
      async (h) => void (await h.control.putAccount({ params: { apiKey: CLIENT_KEY }, body: { credits: 0 } })),
      (o) => expect(o).toEqual({ shown: [], buy: 1, errors: [] }),
    ],
    [
      'a video that fails is an error',
      async (h) => void (await h.control.addScenario({ body: { apiKey: CLIENT_KEY, operationId: 'createVideoTask', outcome: 'failed' } })),
      (o) => {
        expect([o.shown, o.buy, o.errors.length]).toEqual([[], 0, 1]);
        expect((o.errors[0] as Error).message).toMatch(/provider error|moderation/);
      },
    ],
    [
      'the sixth create in a minute waits out the rate limit, then is shown',
      async (h) => {
        for (let i = 0; i < 5; i++) await h.client.call('createVideoTask', { body: { model: 'family1-video-2-fast', content: [{ type: 'text', text: 'x' }] } });
      },
      (o) => expect(o).toEqual({ shown: [expect.stringMatching(/\.mp4$/)], buy: 0, errors: [] }),
    ],
  ];
  for (const version of ['before', 'after'])
    it.each(paths)(`${version}: %s`, async (_name, arrange, check) => {
      h = await clientHarness(transport);
      // openapi-fetch alone: the client without its retries
      const plain = h.clientWith({ retry: false });
      await arrange(h);
      check(await runSnippet(snippet(version), h, plain));
    });

  it('the helpers take a fifth of the caller code (the figures the guide gives)', () => {
    const [before, after] = [callerLines(snippet('before')), callerLines(snippet('after'))];
    console.log(`the guide's video example: ${before} lines of caller code before, ${after} after`);
    expect(section).toContain(`(${before} lines of caller code)`);
    expect(section).toContain(`(${after} lines)`);
    expect(after * 4).toBeLessThan(before);
  });
});

it("the guide's test setup: the client's waits move the mock's clock (polls at 30, 40, 50 and 60 s of virtual time)", async () => {
  const code = blocks.find((b) => b.startsWith('const mock = createMock('))!;
  const js = `${(await transform(code, { loader: 'ts' })).code}\nreturn { task, mock };`;
  const body = { model: 'family1-video-2-fast', content: [{ type: 'text', text: 'a fox in the snow' }] };
  const run = new AsyncFunction('createMock', 'createClient', 'body', js) as unknown as (
    ...a: unknown[]
  ) => Promise<{ task: { status: string }; mock: { now(): number } }>;
  const started = createMock({ seed: 1 }).now();
  const { task, mock } = await run(createMock, createClient, body);
  expect(task.status).toBe('success');
  expect(mock.now() - started).toBe(60_000);
});
