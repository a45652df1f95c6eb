/**
 * The lyrics area (document 3, "Lyrics task", "States and transitions",
 * "Lyrics (prefix /v1/lyrics)", "Limits"): tasks on the task kit, two
 * providers with two shapes.
 *
 *   musicA (and default): create -> success inside the call, one variant, 2 credits captured
 *                                \-> failed inside the call (forced), refunded
 *   musicB: create -> pending --(2 s)--> generating --(callback, 20-40 s after creation)--> success, two variants
 *                                                   \--(the callback reports a failure: forced)--> failed (refunded)
 *           pending or generating for 30 minutes without an update --(timeout)--> failed (38006, refunded, final)
 *
 * The callback is a step of the task's lifecycle: an event that checks the
 * task is still generating, so a callback after the timeout changes nothing.
 * Prefer: outcome=stuck leaves the callback out (the timeout fails the task);
 * outcome=partial makes the callback bring the second variant failed.
 *
 * The lyrics are written here from the prompt, the task id and the seed:
 * English templates filled with the prompt's words and seeded faker words, or
 * a small bank of Chinese or Japanese lines for prompts in those scripts.
 */
import { z } from 'zod';
import { lyricsStatuses } from '../../schemas/lyrics.ts';
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';
import { LYRICS_CREDITS, lyricsSchedule, lyricsVariantCount, type LyricsTask, LyricsVariant } from '../../schemas/lyrics.ts';
import { musicProviders, resolveProvider, type MusicProvider } from '../../schemas/music-providers.ts';
import type { Engine } from '../engine/engine.ts';
import { hash32 } from '../engine/rng.ts';
import type { Handler, Service } from './context.ts';
import { fake } from './fake.ts';
import { failureMessage, forcedFailureReason, TaskKit, taskRecordSchema } from './tasks.ts';
import { cutText } from '../../schemas/text.ts';

/**
 * A stored lyrics task, as saved (checked before a saved state is loaded): the provider that runs it, the prompt,
 * what success brings and the forced variant failure (`failedVariant`: the index of the variant the callback brings
 * failed, Prefer: outcome=partial).
 */
const lyricsRecordSchema = taskRecordSchema(lyricsStatuses, {
  provider: z.enum(musicProviders),
  prompt: z.string(),
  variants: z.array(LyricsVariant),
  creditCost: z.number(),
  failedVariant: z.number().int().optional(),
  errorMessage: z.string().optional(),
});
export type LyricsRecord = z.infer<typeof lyricsRecordSchema>;

const TIMED_OUT: ErrorName = 'LYRICS_TIMED_OUT';

/** The errorMessage of a failure reason: the timeout's own words, else `failureMessage` (`<code>: <meaning>`). */
function lyricsFailureMessage(provider: MusicProvider, reason: string): string {
  if (reason === TIMED_OUT)
    return `${errorCatalog.LYRICS_TIMED_OUT.code}: ${provider === 'musicB' ? 'no provider callback within 30 minutes' : 'the musicA provider did not answer in time'}; the credits were refunded`;
  return failureMessage(reason);
}

const kit = new TaskKit<LyricsRecord>(
  { area: 'lyrics', idPrefix: 'lyr', noun: 'lyrics task', terminal: ['success', 'failed'], failStatus: 'failed' },
  {
    onEnter(engine, r, status, at) {
      // "30 minutes without an update": each move restarts the clock of the timeout
      if (status === 'generating') kit.timeout(engine, r, at + lyricsSchedule.timeoutMs, ['generating'], TIMED_OUT);
      if (status === 'success') complete(engine, r);
    },
    onFail(_engine, r, reason) {
      r.errorMessage = lyricsFailureMessage(r.provider, reason);
    },
  },
);

/** What success brings: the variants (one forced failed with outcome=partial) and the captured price. */
function complete(engine: Engine, r: LyricsRecord): void {
  r.variants = Array.from({ length: lyricsVariantCount[r.provider] }, (_, i) => {
    const { title, text } = writeLyrics(engine.seed, r.id, i, r.prompt);
    if (i !== r.failedVariant) return { title, text, status: 'complete' as const };
    return {
      title,
      text: '',
      status: 'failed' as const,
      errorMessage: `${errorCatalog.LYRICS_GENERATION_FAILED.code}: the provider returned no lyrics for this variant`,
    };
  });
  r.creditCost = LYRICS_CREDITS;
}

/** When the musicB provider's callback arrives, ms after creation: fixed per task id, within the assumed window. */
export function musicBCallbackMs(seed: number, taskId: string): number {
  const { callbackMinMs: lo, callbackMaxMs: hi } = lyricsSchedule;
  return lo + (hash32(seed, taskId, 'lyrics-callback') % (hi - lo + 1));
}

function present(r: LyricsRecord): LyricsTask {
  return {
    id: r.id,
    provider: r.provider,
    status: r.status,
    params: { prompt: r.prompt },
    variants: r.status === 'success' ? r.variants : [],
    creditCost: r.creditCost,
    ...(r.errorMessage !== undefined ? { errorMessage: r.errorMessage } : {}),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

const create: Handler<'createLyricsTask'> = ({ body }, ctx) => {
  const { engine, now, forcing } = ctx;
  const provider = resolveProvider(body.provider);
  if (provider === 'musicA' && (forcing.outcome === 'stuck' || forcing.outcome === 'partial'))
    throw ctx.fail(
      'INVALID_PREFER',
      `Prefer outcome=${forcing.outcome}: a musicA lyrics task finishes inside the create call with one variant; send provider musicB to force it`,
    );
  const id = kit.nextId(ctx);
  kit.reserve(ctx, id, LYRICS_CREDITS, 'LYRICS_INSUFFICIENT_CREDITS', `lyrics (${provider})`);
  const r = kit.create(ctx, id, 'pending', {
    provider,
    prompt: body.prompt,
    variants: [],
    creditCost: 0,
    ...(forcing.outcome === 'partial' ? { failedVariant: 1 } : {}),
  });
  const failWith = forcedFailureReason(ctx);

  if (provider === 'musicA') {
    // synchronous: the provider answers inside this call
    if (failWith) kit.fail(engine, r, now, failWith);
    else {
      kit.succeed(engine, r, 'success', now);
      complete(engine, r);
    }
    return { taskId: id, status: r.status as 'success' | 'failed' };
  }

  const sch = lyricsSchedule;
  kit.timeout(engine, r, now + sch.timeoutMs, ['pending'], TIMED_OUT);
  // a forced timeout is a callback that never comes: the timeout fails the task with 38006
  const stuck = forcing.outcome === 'stuck' || failWith === TIMED_OUT;
  kit.run(
    engine,
    r,
    {
      steps: [
        { status: 'generating', afterMs: sch.pendingMs },
        { status: 'success', afterMs: musicBCallbackMs(engine.seed, id) - sch.pendingMs },
      ],
      ...(failWith && !stuck ? { failure: { atStep: 1, reason: failWith } } : {}),
      ...(stuck ? { stuckBefore: 1 } : {}),
    },
    now,
  );
  return { taskId: id, status: 'pending' as const };
};

const get: Handler<'getLyricsTask'> = ({ params }, ctx) => present(kit.own(ctx, params.taskId, { notFound: 'LYRICS_TASK_NOT_FOUND' }));

const list: Handler<'listLyricsTasks'> = ({ query }, ctx) => kit.page(ctx, query, present);

/** The lyrics area's service: create, get and list. */
export const lyricsService: Service<'createLyricsTask' | 'getLyricsTask' | 'listLyricsTasks'> = {
  kits: [kit],
  records: { lyrics: lyricsRecordSchema },
  handlers: { createLyricsTask: create, getLyricsTask: get, listLyricsTasks: list },
};

// ---------------------------------------------------------------------------
// The lyrics writer
// ---------------------------------------------------------------------------

type Script = 'en' | 'zh' | 'ja';

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;

/** The script the lyrics are written in: Japanese when the prompt has kana, Chinese when it has Han characters, else English. */
export function promptScript(prompt: string): Script {
  if (KANA.test(prompt)) return 'ja';
  if (HAN.test(prompt)) return 'zh';
  return 'en';
}

const STOPWORDS = new Set(
  'a an and are about as at be but by for from in into is it its of on or our over so some song that the their this to under with without write my me we you your about lyrics'.split(
    ' ',
  ),
);

/** Words of an English prompt worth singing about: letters only, three or more, no stopwords, first occurrence kept. */
function keywordsOf(prompt: string): string[] {
  const words = (prompt.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => w.length >= 3 && !STOPWORDS.has(w));
  return [...new Set(words)];
}

/** Particles and joining words a CJK prompt is split at: what lies between them are its motifs. */
const CJK_JOINERS = /[\s\p{P}\p{S}的和与在了是也のをはがにへとでもや]+/u;

/** The motifs of a Chinese or Japanese prompt: its runs of two or more characters between particles, each cut to `max`. */
function motifsOf(prompt: string, max: number): string[] {
  return prompt
    .split(CJK_JOINERS)
    .filter((m) => [...m].length >= 2 && /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(m))
    .map((m) => cutText(m, max));
}

const titleCase = (s: string) => s.replace(/\p{L}+/gu, (w) => w.charAt(0).toUpperCase() + w.slice(1));

/** Words the English templates are filled with (faker picks among them: its own word lists are not song words). */
const EN_WORDS = {
  noun: [
    'river',
    'highway',
    'city',
    'ocean',
    'summer',
    'heart',
    'fire',
    'rain',
    'star',
    'morning',
    'shadow',
    'moon',
    'road',
    'window',
    'radio',
    'sky',
    'harbor',
    'garden',
    'train',
    'letter',
  ],
  adj: ['golden', 'restless', 'silver', 'quiet', 'wild', 'electric', 'fading', 'endless', 'burning', 'gentle', 'lonely', 'bright', 'velvet', 'distant'],
  verb: ['dance', 'run', 'wait', 'sing', 'drive', 'shine', 'hold on', 'dream', 'fly', 'stay'],
} as const;

const EN = {
  titles: ['{Adj} {Kw}', '{Kw} Tonight', 'Songs of {Kw}', 'The {Kw} We Knew', '{Kw} and the {Noun}', 'Back to {Kw}'],
  verse: [
    'I still remember {kw} in the {adj} light',
    'We were chasing every {noun} down the road',
    'You said the {noun} would never let us go',
    'Counting every {noun} on a summer afternoon',
    'The radio was playing something {adj} and slow',
    'Every {noun} we passed had a story to tell',
    'Dreaming of {kw} with the windows down',
    'Your laughter rang out, {adj} and bright',
    'We left our names written on the {noun}',
    'Nothing felt as {adj} as the {kw} we knew',
    'The night was young and the {noun} was ours',
    'I carry {kw} like a little flame',
    'Footsteps fading where the {noun} begins',
    'We never asked the {noun} where it goes',
  ],
  chorus: [
    'Oh, {title}, take me home again',
    'Sing it loud for {kw}, sing it to the end',
    'Hold on to the {adj} things we found',
    'Oh, {title}, never let it fade',
    'We are {adj}, we are never coming down',
    'Under the {noun} I hear {kw} calling out',
  ],
  bridge: ['And if the {noun} should fall tonight', 'I will {verb} until the morning light', 'So let the {adj} hours roll', 'We are {kw}, body and soul'],
} as const;

const ZH = {
  titles: ['{kw}之歌', '{kw}', '关于{kw}', '{kw}的夏天'],
  verse: [
    '{kw}在风里轻轻唱',
    '我们走过长长的街',
    '夜色落在你的肩上',
    '心跳跟着节拍摇晃',
    '把昨天写进一首歌',
    '星光照亮回家的路',
    '你的笑像一束光',
    '雨停了天空更蓝',
    '时间慢慢地流淌',
    '{kw}是我心里的远方',
    '窗外的灯一盏盏亮',
    '我把思念折成纸船',
  ],
  chorus: ['{kw}，{kw}，请你别走远', '就让这首歌陪着你', '直到世界都安静', '我们一起唱到天亮', '{kw}永远在心上'],
  bridge: ['如果明天下起雨', '我也会一直等你'],
} as const;

const JA = {
  titles: ['{kw}の歌', '{kw}', 'さよなら{kw}', '{kw}へ'],
  verse: [
    '{kw}を胸に抱いて',
    '夜明けの街を歩く',
    '君の声が聞こえる',
    '風が優しく吹いて',
    '涙はもういらない',
    '星空の下で歌おう',
    '遠い日の約束',
    '光の中へ走り出す',
    '心はいつもそばにある',
    '{kw}の夢を見た',
    '窓辺に春が来る',
    '小さな手を握りしめ',
  ],
  chorus: ['{kw}よ 届いて', 'ずっと一緒にいよう', 'この歌を君に', '明日へつなぐメロディー', '{kw}を忘れない'],
  bridge: ['もしも雨が降っても', '僕はここで待っている'],
} as const;

/**
 * Variant `variant` of the lyrics of task `taskId` for `prompt` (deterministic
 * in seed, task id, variant and prompt): a title and text in sections
 * [Verse 1], [Chorus], [Verse 2], [Chorus], [Bridge], [Chorus] of lines, in
 * the prompt's script (English, Chinese or Japanese).
 */
export function writeLyrics(seed: number, taskId: string, variant: number, prompt: string): { title: string; text: string } {
  return fake(seed, ['lyrics', taskId, variant], (f) => {
    const script = promptScript(prompt);
    const bank = script === 'zh' ? ZH : script === 'ja' ? JA : EN;
    let kw: string;
    if (script === 'en') {
      const words = keywordsOf(prompt);
      kw = words.length ? f.helpers.arrayElement(words) : f.helpers.arrayElement(EN_WORDS.noun);
    } else {
      const motifs = motifsOf(prompt, script === 'zh' ? 4 : 6);
      kw = motifs.length ? f.helpers.arrayElement(motifs) : script === 'zh' ? '远方' : '明日';
    }
    const fill = (template: string, title = '') =>
      template
        .replaceAll('{title}', title)
        .replaceAll('{Kw}', titleCase(kw))
        .replaceAll('{kw}', kw)
        .replaceAll('{Adj}', () => titleCase(f.helpers.arrayElement(EN_WORDS.adj)))
        .replaceAll('{adj}', () => f.helpers.arrayElement(EN_WORDS.adj))
        .replaceAll('{Noun}', () => titleCase(f.helpers.arrayElement(EN_WORDS.noun)))
        .replaceAll('{noun}', () => f.helpers.arrayElement(EN_WORDS.noun))
        .replaceAll('{verb}', () => f.helpers.arrayElement(EN_WORDS.verb));
    const title = fill(f.helpers.arrayElement(bank.titles));
    const verses = f.helpers.shuffle([...bank.verse]);
    const chorus = f.helpers.arrayElements([...bank.chorus], 4).map((l) => fill(l, title));
    const lines = (from: number) => verses.slice(from, from + 4).map((l) => fill(l));
    const sections: [string, string[]][] = [
      ['Verse 1', lines(0)],
      ['Chorus', chorus],
      ['Verse 2', lines(4)],
      ['Chorus', chorus],
      ['Bridge', bank.bridge.map((l) => fill(l))],
      ['Chorus', chorus],
    ];
    return { title, text: sections.map(([name, ls]) => `[${name}]\n${ls.join('\n')}`).join('\n\n') };
  });
}
