/**
 * The page-deck service (document 3, "Page-deck episode (GET result)",
 * "Page-deck episodes (prefix /v1/storybook)"): episodes on the task kit, and
 * their video renders on a second kit.
 *
 *   episode: create -> pending --(storybookProcessingMs)--> success (pages, narration)
 *                             \--(forced failure)--> fail (refunded, failCode)
 *            pending for more than 30 minutes --(timeout)--> fail (40011)
 *   video:   call (processStatus success) -> pending --(storybookRenderMs)--> success (videoUrl)
 *                                                  \--> fail (the render refunded)
 *
 * The deck is written at creation, deterministic in the seed and the request:
 * the pages' texts (page 1 the mode's cover or title page) within the mode's
 * word range, each page's image colours, and the narration: one line per
 * page in the speaker's voice, so each page starts where the lines before it
 * end (`audioTimestamp`). The video shows each page's colours from that time
 * (a scene cut, an IDR picture) over the narration.
 */
import { z } from 'zod';
import { episodeStatuses } from '../../schemas/speech.ts';
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';
import { mediaFileTypes } from '../../schemas/media.ts';
import {
  storybookCredits,
  storybookModePlans,
  storybookProcessingMs,
  storybookRenderMs,
  storybookSchedule,
  storybookVideo,
  storybookVideoCredits,
  storybookWritingLanguage,
  type StorybookEpisode,
  type StorybookLanguage,
  storybookModes,
  type StorybookMode,
  type VideoStatus,
} from '../../schemas/storybook.ts';
import type { Engine } from '../engine/engine.ts';
import { encodedAudio } from '../media/audio.ts';
import { labelKey, promptStart } from '../media/label-text.ts';
import { colourFor, rgbHex } from '../media/colour.ts';
import type { Rgb } from '../media/types.ts';
import { labelledImage, renderVideo } from '../media/renderers.ts';
import type { Handler, Service, ServiceContext } from './context.ts';
import { fake } from './fake.ts';
import { durationOf, fakeArticle, lineFrames, mp3Asset, sentences, speakLines, titleOf, type SpokenLine } from './narration.ts';
import { voiceOf } from './voices.ts';
import { cataloguedReason, forcedFailureReason, objectOf, TaskKit, taskRecordSchema } from './tasks.ts';
import { cutText } from '../../schemas/text.ts';

type Language = StorybookLanguage;

/**
 * A stored deck, as saved: what its GET shows and what renders its media. Plain data. `language` is the one asked
 * for (the deck is written in `storybookWritingLanguage` of it); `pages` the pages' narration scripts, page 1 first;
 * `lines` the narration, one line per page (absent with skipAudio); `price` the deck's (captured on success);
 * `charged` the credits captured so far (the deck, then each rendered video); `videoId` the latest video render.
 */
const storybookRecordSchema = taskRecordSchema(episodeStatuses, {
  mode: z.enum(storybookModes),
  language: z.string(),
  skipAudio: z.boolean(),
  title: z.string(),
  pages: z.array(z.string()),
  lines: z.array(objectOf<SpokenLine>()).optional(),
  price: z.number(),
  charged: z.number(),
  failCode: z.number().optional(),
  failReason: z.string().optional(),
  completedTime: z.number().optional(),
  videoId: z.string().optional(),
});
type DeckRecord = z.infer<typeof storybookRecordSchema>;

/** A video render of a deck, as saved. */
const storybookVideoRecordSchema = taskRecordSchema(episodeStatuses, {
  episodeId: z.string(),
  durationMs: z.number(),
  credits: z.number(),
  failReason: z.string().optional(),
});
type RenderRecord = z.infer<typeof storybookVideoRecordSchema>;

const deckKit = new TaskKit<DeckRecord>(
  { area: 'storybook', idPrefix: 'sb', noun: 'episode', terminal: ['success', 'fail'], failStatus: 'fail' },
  {
    onEnter(_engine, r, status, at) {
      if (status !== 'success') return;
      r.completedTime = at;
      r.charged += r.price;
    },
    onFail(_engine, r, reason, _refunded, at) {
      r.completedTime = at;
      r.failReason = reason;
      r.failCode = (cataloguedReason(reason) ?? errorCatalog.STORYBOOK_GENERATION_FAILED).code;
    },
  },
);

const videoKit = new TaskKit<RenderRecord>(
  { area: 'storybook-video', idPrefix: 'sbv', noun: 'video render', terminal: ['success', 'fail'], failStatus: 'fail' },
  {
    onEnter(engine, v, status) {
      const deck = deckKit.find(engine, v.episodeId);
      if (status === 'success' && deck) deck.charged += v.credits;
    },
    onFail(_engine, v, reason) {
      v.failReason = reason;
    },
  },
);

const mediaOf = (id: string, file: string) => `/media/storybook/${id}/${file}`;

// ---------------------------------------------------------------------------
// Writing a deck
// ---------------------------------------------------------------------------

/** Words of an English page (whitespace-separated tokens); characters of a Chinese or Japanese one. */
function units(text: string, language: Language): number {
  return language === 'en' ? text.split(/\s+/).filter(Boolean).length : [...text.replace(/\s/g, '')].length;
}

/** `text` cut to its first `n` units, ended with a stop. */
function cut(text: string, n: number, language: Language): string {
  if (language === 'en')
    return `${text
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, n)
      .join(' ')
      .replace(/[,;:]$/, '')}.`;
  return `${cutText(text.replace(/\s/g, ''), n)}。`;
}

const leads: Record<Language, Record<StorybookMode, (title: string) => string>> = {
  en: {
    info: (t) => `${t}: an illustrated guide.`,
    story: (t) => `${t}. Once upon a time, this story began.`,
    slides: (t) => `${t}. Welcome to this presentation.`,
  },
  zh: { info: (t) => `${t}：图解指南。`, story: (t) => `${t}。很久以前，故事就这样开始了。`, slides: (t) => `${t}。欢迎观看本次演示。` },
  ja: {
    info: (t) => `${t}：図解ガイド。`,
    story: (t) => `${t}。むかしむかし、物語はこうして始まりました。`,
    slides: (t) => `${t}。このプレゼンテーションへようこそ。`,
  },
};

/**
 * The deck of `source` (assumed content): the title from the source's first
 * sentence, then the mode's pages, each of its word range (page 1 opens with
 * the mode's cover lead), filled with the source's sentences in order and
 * then with the fake article of a notes URL when the source runs out.
 */
function writeDeck(
  seed: number,
  id: string,
  source: { type: 'text' | 'url'; content: string },
  mode: StorybookMode,
  language: Language,
): { title: string; pages: string[] } {
  const text = source.type === 'text' ? source.content : fakeArticle(seed, source.content, language);
  const own = sentences(text);
  const title = titleOf(own[0] ?? text) || 'Untitled';
  const extra = sentences(fakeArticle(seed, `https://example.org/notes/${id}`, language)).slice(1);
  const pool = [...(source.type === 'url' ? own.slice(1) : own), ...extra];
  const { pages: count, words } = storybookModePlans[mode];
  let k = 0;
  const next = () => pool[k++ % pool.length];
  const pages = fake(seed, ['storybook', id], (f) =>
    Array.from({ length: count }, (_, i) => {
      let page = i === 0 ? leads[language][mode](title.replace(/…$/u, '')) : '';
      while (units(page, language) < words.min) {
        const s = next() ?? f.hacker.phrase();
        const room = words.max - units(page, language);
        page = units(s, language) <= room ? `${page} ${s}`.trim() : `${page} ${cut(s, room, language)}`.trim();
      }
      return language === 'en' ? page : page.replace(/\s+/g, '');
    }),
  );
  return { title, pages };
}

/** The page images' colours: page `n` (from 1) of deck `id`. */
const pageColours = (seed: number, id: string, n: number): { bg: Rgb; fg: Rgb } => ({
  bg: colourFor(seed, id, `page-${n}-bg`),
  fg: colourFor(seed, id, `page-${n}-fg`),
});

/** Where each page starts in the narration, ms (each page one line). */
function pageStartsMs(lines: readonly SpokenLine[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += durationOf([l]);
  }
  return starts;
}

/** What the video of `r` lasts and where each page starts in it, ms: the narration, or `silentPageMs` a page without it. */
function videoTimeline(r: DeckRecord): { durationMs: number; startsMs: number[] } {
  if (r.lines) return { durationMs: durationOf(r.lines), startsMs: pageStartsMs(r.lines) };
  return { durationMs: r.pages.length * storybookVideo.silentPageMs, startsMs: r.pages.map((_, i) => i * storybookVideo.silentPageMs) };
}

// ---------------------------------------------------------------------------
// Presenting
// ---------------------------------------------------------------------------

/** The latest render of `r`, if any. */
const renderOf = (engine: Engine, r: DeckRecord) => (r.videoId ? videoKit.find(engine, r.videoId) : undefined);

/** The episode as the API answers it, with this request's absolute URLs. */
function presentDeck(r: DeckRecord, ctx: Pick<ServiceContext, 'url' | 'engine'>): StorybookEpisode {
  const render = renderOf(ctx.engine, r);
  const videoStatus: VideoStatus = render ? render.status : 'not_generated';
  const done = r.status === 'success';
  const starts = r.lines ? pageStartsMs(r.lines) : undefined;
  const message =
    r.status === 'fail'
      ? (errorCatalog[(r.failReason ?? 'STORYBOOK_GENERATION_FAILED') as ErrorName]?.meaning ?? 'failed')
      : r.status === 'pending'
        ? `making ${r.pages.length} pages${r.skipAudio ? '' : ' and their narration'}`
        : videoStatus === 'pending'
          ? 'rendering the video'
          : videoStatus === 'fail'
            ? `the video render failed: ${errorCatalog[(render?.failReason ?? 'STORYBOOK_VIDEO_FAILED') as ErrorName]?.meaning ?? 'failed'}`
            : 'done';
  return {
    episodeId: r.id,
    createdAt: Math.floor(r.createdAt / 1000),
    mode: r.mode,
    processStatus: r.status,
    videoStatus,
    credits: r.charged,
    ...(r.failCode !== undefined ? { failCode: r.failCode } : {}),
    message,
    ...(done
      ? {
          title: r.title,
          cover: ctx.url(mediaOf(r.id, 'pages/1.png')),
          audioUrl: r.lines ? ctx.url(mediaOf(r.id, 'narration.mp3')) : '',
          audioDuration: r.lines ? durationOf(r.lines) / 1000 : 0,
          pages: r.pages.map((text, i) => ({
            text,
            pageNumber: i + 1,
            imageUrl: ctx.url(mediaOf(r.id, `pages/${i + 1}.png`)),
            audioTimestamp: starts ? starts[i] / 1000 : 0,
          })),
        }
      : {}),
    videoUrl: videoStatus === 'success' ? ctx.url(mediaOf(r.id, 'video.mp4')) : '',
  };
}

/** A succeeded deck of any owner (media routes), or undefined. */
function doneDeck(engine: Engine, id: string): DeckRecord | undefined {
  const r = deckKit.find(engine, id);
  return r?.status === 'success' ? r : undefined;
}

const notFound = { notFound: 'STORYBOOK_EPISODE_NOT_FOUND', field: 'episodeId' } as const;

const createStorybookEpisode: Handler<'createStorybookEpisode'> = async ({ body }, ctx) => {
  const { engine, now, forcing } = ctx;
  const voice = body.skipAudio ? undefined : voiceOf(ctx, body.speakers![0].speakerId, 'speakers[0].speakerId', 'STORYBOOK_SPEAKER_NOT_FOUND');
  const id = deckKit.nextId(ctx);
  const { title, pages } = writeDeck(engine.seed, id, body.sources[0], body.mode, storybookWritingLanguage(body.language));
  const said = voice ? pages.map((text) => ({ speakerId: voice.speakerId, variant: voice.variant, text, frames: lineFrames(text, 1) })) : undefined;
  // spoken in words when the world has a speech engine (each page's narration measured from its audio)
  const lines =
    said && voice ? await speakLines(engine, said, () => ({ language: storybookWritingLanguage(body.language), gender: voice.gender }), 1) : undefined;
  const narrated = lines ? lines.reduce((n, l) => n + [...l.text].length, 0) : 0;
  const price = storybookCredits(body.mode, pages.length, narrated);
  deckKit.reserve(ctx, id, price, 'STORYBOOK_INSUFFICIENT_CREDITS', `page deck ${body.mode}, ${pages.length} pages`);
  const r = deckKit.create(ctx, id, 'pending', {
    mode: body.mode,
    language: body.language,
    skipAudio: body.skipAudio,
    title,
    pages,
    ...(lines ? { lines } : {}),
    price,
    charged: 0,
  });
  const afterMs = storybookProcessingMs(pages.length, lines ? durationOf(lines) : 0);
  const failWith = forcedFailureReason(ctx);
  deckKit.timeout(engine, r, now + storybookSchedule.timeoutMs + 1, ['pending'], 'STORYBOOK_TIMED_OUT');
  deckKit.run(
    engine,
    r,
    {
      steps: [{ status: 'success', afterMs }],
      ...(failWith ? { failure: { atStep: 0, reason: failWith, afterMs: Math.round(afterMs / 2) } } : {}),
      ...(forcing.outcome === 'stuck' ? { stuckBefore: 0 } : {}),
    },
    now,
  );
  return { episodeId: id };
};

const getStorybookEpisode: Handler<'getStorybookEpisode'> = ({ params }, ctx) => {
  return presentDeck(deckKit.own(ctx, params.episodeId, notFound), ctx);
};

const createStorybookVideo: Handler<'createStorybookVideo'> = ({ params }, ctx) => {
  const { engine, now, forcing } = ctx;
  const r = deckKit.own(ctx, params.episodeId, notFound);
  if (r.status !== 'success')
    throw ctx.fail(
      'STORYBOOK_VIDEO_NOT_ALLOWED',
      r.status === 'pending'
        ? `episode ${r.id} is still being made (processStatus pending); render its video once processStatus is success`
        : `episode ${r.id} failed (failCode ${r.failCode}); there is nothing to render`,
    );
  const current = renderOf(engine, r);
  // a render running or done: the call changes nothing (a second click on "render" is harmless)
  if (current && current.status !== 'fail') return { success: true as const };
  const { durationMs } = videoTimeline(r);
  const credits = storybookVideoCredits(durationMs);
  const videoId = videoKit.nextId(ctx);
  videoKit.reserve(ctx, videoId, credits, 'STORYBOOK_INSUFFICIENT_CREDITS', `page deck video ${r.id}, ${Math.round(durationMs / 1000)} s`);
  const v = videoKit.create(ctx, videoId, 'pending', {
    episodeId: r.id,
    durationMs,
    credits,
  });
  r.videoId = videoId;
  const afterMs = storybookRenderMs(durationMs);
  const failWith = forcedFailureReason(ctx);
  videoKit.timeout(engine, v, now + storybookSchedule.timeoutMs + 1, ['pending'], 'STORYBOOK_TIMED_OUT');
  videoKit.run(
    engine,
    v,
    {
      steps: [{ status: 'success', afterMs }],
      ...(failWith ? { failure: { atStep: 0, reason: failWith, afterMs: Math.round(afterMs / 2) } } : {}),
      ...(forcing.outcome === 'stuck' ? { stuckBefore: 0 } : {}),
    },
    now,
  );
  return { success: true as const };
};

/** The three page-deck operations. Errors: 40001 (rules), 40003 (voice), 40004 (credits), 40005 (not found), 40006 (video before success). */
export const storybookService: Service<'createStorybookEpisode' | 'getStorybookEpisode' | 'createStorybookVideo'> = {
  kits: [deckKit, videoKit],
  records: { storybook: storybookRecordSchema, 'storybook-video': storybookVideoRecordSchema },
  handlers: {
    createStorybookEpisode,
    getStorybookEpisode,
    createStorybookVideo,
  },

  media: [
    {
      path: mediaOf('{episodeId}', 'pages/{n}.png'),
      resolve(engine, p) {
        const r = doneDeck(engine, p.episodeId);
        if (!r || !/^[1-9]\d*$/.test(p.n) || Number(p.n) > r.pages.length) return undefined;
        const { width, height } = storybookModePlans[r.mode].image;
        const { bg, fg } = pageColours(engine.seed, r.id, Number(p.n));
        const label = { prompt: promptStart(r.pages[Number(p.n) - 1]), model: `storybook ${r.mode}, page ${p.n}`, id: r.id };
        return {
          contentType: mediaFileTypes.png.contentType,
          key: `png ${width}x${height} ${rgbHex(bg)}/${rgbHex(fg)} ${labelKey(label)}`,
          render: () => labelledImage(width, height, bg, fg, label),
        };
      },
    },
    {
      path: mediaOf('{episodeId}', 'narration.mp3'),
      resolve(engine, p) {
        const r = doneDeck(engine, p.episodeId);
        return r?.lines ? { ...mp3Asset(engine, r.lines), owner: r.owner } : undefined;
      },
    },
    {
      path: mediaOf('{episodeId}', 'video.mp4'),
      resolve(engine, p) {
        const r = doneDeck(engine, p.episodeId);
        const render = r && renderOf(engine, r);
        if (!r || render?.status !== 'success') return undefined;
        const { durationMs, startsMs } = videoTimeline(r);
        const scenes = startsMs.map((atMs, i) => ({ atMs, colours: pageColours(engine.seed, r.id, i + 1) }));
        const variant = r.lines?.[0].variant;
        const label = { prompt: promptStart(r.title), model: `storybook ${r.mode}`, id: r.id };
        return {
          contentType: mediaFileTypes.mp4.contentType,
          key: `storybook mp4 ${engine.seed} ${r.id} ${durationMs} ${startsMs.join(',')} ${variant ?? 'silent'} ${labelKey(label)}`,
          owner: r.owner,
          render: async () =>
            renderVideo({
              width: storybookVideo.width,
              height: storybookVideo.height,
              durationMs,
              colours: scenes[0].colours,
              scenes: scenes.slice(1),
              label,
              ...(variant !== undefined ? { audio: await encodedAudio('aac', durationMs, variant) } : {}),
            }),
        };
      },
    },
  ],
};
