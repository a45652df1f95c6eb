/**
 * The podcast service (document 2, "Podcast", "Podcast episode (GET
 * result)"): one-shot episodes, the two-stage flow and the live text stream,
 * on the task kit.
 *
 * An episode is written in full at creation (deterministic in the seed and
 * the request) with a time for every piece: the sources are read, the
 * outline items and the script lines appear one by one, then the audio is
 * rendered. GET and the text stream show what the virtual clock has reached;
 * the kit moves processStatus when a stage ends.
 *
 *   one-shot:  create -> pending --(sources, outline, lines, audio)--> success
 *   two-stage: text-content -> pending --(sources, outline, lines)--> success (text-success)
 *              audio call   -> pending --(audio)--> success (audio-success) | fail (audio-fail)
 *   a forced failure halts the text halfway through the script; a forced
 *   stall halts it before anything is read; a stage pending for 30 minutes
 *   fails (37011). A failed stage is refunded in full.
 *
 * Money (assumed prices, `podcastModePlans`, `podcastAudioCredits`): a
 * one-shot episode reserves script and audio at creation and captures both on
 * success; the two-stage flow reserves and captures each stage on its own.
 * `credits` shows what is consumed so far.
 */
import { z } from 'zod';
import { episodeStatuses } from '../../schemas/speech.ts';
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';
import {
  podcastAudioCredits,
  podcastAudioSchedule,
  podcastModePlans,
  podcastRenderMs,
  podcastWritingLanguage,
  type ContentStatus,
  type PodcastEpisode,
  type PodcastLanguage,
  type PodcastMode,
  type PodcastRequest,
} from '../../schemas/podcast.ts';
import { charCount, inferLanguage, SPEECH_MAX_CHARS, type EpisodeStatus } from '../../schemas/speech.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import type { Handler, Service, ServiceContext } from './context.ts';
import { fake } from './fake.ts';
import { durationOf, episodeMediaRoutes, fakeArticle, lineFrames, sentences, titleOf, type SpokenLine } from './narration.ts';
import { distinctVariants, voiceOf } from './voices.ts';
import { TaskKit, type Task, taskRecordSchema } from './tasks.ts';
import { cutText, wellFormed } from '../../schemas/text.ts';

// ---------------------------------------------------------------------------
// The record
// ---------------------------------------------------------------------------

/** A speaker slot of an episode: the voice, its name and its timbre in the audio. */
interface Slot {
  speakerId: string;
  speakerName: string;
  variant: number;
}

/** A stored podcast episode: everything it will show, with the virtual time each piece appears. Plain data. */
interface PodcastRecord extends Task<EpisodeStatus> {
  flow: 'one-shot' | 'two-stage';
  mode: PodcastMode;
  /** The language asked for (or inferred); the script is written in `podcastWritingLanguage` of it. */
  language: string;
  speed: number;
  slots: Slot[];
  title: string;
  outline: string[];
  source: { content: string; references: { title: string; url: string }[] };
  /** The script: each line's speaker slot and words (the edited words after an audio call with scripts). */
  lines: { slot: number; content: string }[];
  /** When the sources are read, each outline item and each line is written, epoch ms (virtual). */
  sourcesAt: number;
  outlineAt: number[];
  linesAt: number[];
  /** Text written at or after this time never appears (a forced failure or stall of the text stage). */
  haltAt?: number;
  /** 1 while the text stage (and a one-shot episode's audio) runs; 2, 3, ... for each audio call. */
  stage: number;
  scriptCredits: number;
  /** Credits of the audio being rendered, or last rendered. */
  audioCredits: number;
  /** Credits captured so far. */
  charged: number;
  contentStatus?: ContentStatus;
  failCode: number;
  failReason?: string;
  completedTime?: number;
  /** The lines being rendered (set when the audio stage starts). */
  rendering?: SpokenLine[];
  /** The lines of the rendered audio (set on success). */
  audio?: SpokenLine[];
}

/** The time the whole script is written. */
const textAt = (r: PodcastRecord) => r.linesAt[r.linesAt.length - 1];

/** True when the piece due at `at` has appeared by `now` (and the text was not halted first). */
const shown = (r: PodcastRecord, at: number, now: number) => at <= now && at < (r.haltAt ?? Number.POSITIVE_INFINITY);

/** How many of `times` have appeared by `now`. */
const countShown = (r: PodcastRecord, times: readonly number[], now: number) => times.filter((t) => shown(r, t, now)).length;

const kit: TaskKit<PodcastRecord> = new TaskKit<PodcastRecord>(
  { area: 'podcast', idPrefix: 'pe', noun: 'episode', terminal: ['success', 'fail'], failStatus: 'fail' },
  {
    onEnter(_engine, r, status, at) {
      if (status !== 'success') return;
      r.completedTime = at;
      r.failCode = 0;
      if (r.flow === 'two-stage' && r.stage === 1) {
        r.contentStatus = 'text-success';
        r.charged += r.scriptCredits;
        return;
      }
      r.audio = r.rendering;
      r.rendering = undefined;
      r.charged += r.flow === 'one-shot' ? r.scriptCredits + r.audioCredits : r.audioCredits;
      if (r.flow === 'two-stage') r.contentStatus = 'audio-success';
    },
    onFail(_engine, r, reason, _refunded, at) {
      r.completedTime = at;
      r.failReason = reason;
      r.failCode = Object.hasOwn(errorCatalog, reason) ? errorCatalog[reason as ErrorName].code : errorCatalog.PODCAST_GENERATION_FAILED.code;
      r.rendering = undefined;
      if (r.stage === 1) {
        r.haltAt = Math.min(r.haltAt ?? at, at);
        if (r.flow === 'two-stage') r.contentStatus = 'text-fail';
      } else r.contentStatus = 'audio-fail';
    },
    onAction(engine, r, action, at) {
      // `timeout:<stage>`: the stage that scheduled it is still pending
      if (action === `timeout:${r.stage}` && r.status === 'pending') kit.fail(engine, r, at, 'PODCAST_TIMED_OUT');
    },
  },
);

const mediaBase = '/media/podcast';
const mediaOf = (id: string, file: string) => `${mediaBase}/${id}/${file}`;

// ---------------------------------------------------------------------------
// Writing an episode
// ---------------------------------------------------------------------------

/** What the mock writes for an episode. */
interface Written {
  title: string;
  outline: string[];
  source: PodcastRecord['source'];
  lines: { slot: number; content: string }[];
}

/** The words of each language: greetings, questions, closings, outline headings and titles (assumed content). */
const phrases = {
  en: {
    intro: (a: string, topic: string) => `Welcome to the show. I'm ${a}, and today we're talking about ${topic}.`,
    solo: (a: string, topic: string) => `Welcome. I'm ${a}, and this episode is about ${topic}.`,
    reply: (a: string, b: string) => `Thanks, ${a}. I'm ${b}, and I've been reading up on it.`,
    questions: [
      'So where do we start?',
      'What does the material say about that?',
      'Why does that matter?',
      'Can you give an example?',
      'What surprised you most?',
    ],
    cite: (title: string, s: string) => `According to ${title}: ${s}`,
    sum: (topic: string) => `To sum up, ${topic} is worth understanding well.`,
    bye: "That's all for today. Thanks for listening.",
    motion: (a: string, topic: string) => `Welcome to the debate. I'm ${a}, and the motion is: ${topic}. I'll argue for it.`,
    against: (b: string) => `And I'm ${b}. I'll argue against it.`,
    pro: (s: string) => `In favour: ${s}`,
    con: (s: string) => `Against that: ${s}`,
    counters: ['that overlooks the cost.', 'the evidence is thinner than it looks.', 'it ignores who pays for it.', 'it works in theory, not in practice.'],
    closeFor: (topic: string) => `My closing: the case for ${topic} stands.`,
    closeAgainst: 'And mine: the case against it is stronger. Thanks for listening.',
    outline: {
      quick: (t: string) => [`Introduction: ${t}`, 'What the material says', 'Questions and answers', 'Wrap-up'],
      deep: (t: string) => [`Introduction: ${t}`, 'Background', 'What the sources say', 'A closer look', 'Open questions', 'Wrap-up'],
      debate: (t: string) => [`The motion: ${t}`, 'Opening statements', 'The case for', 'The case against', 'Closing statements'],
    },
    title: { quick: (t: string) => t, deep: (t: string) => `${t}: a deep dive`, debate: (t: string) => `Debate: ${t}` },
    notes: (t: string) => `Research notes on ${t}.`,
    anyTopic: "today's topic",
  },
  zh: {
    intro: (a: string, topic: string) => `欢迎收听本期节目。我是${a}，今天我们聊聊${topic}。`,
    solo: (a: string, topic: string) => `欢迎收听。我是${a}，本期节目的主题是${topic}。`,
    reply: (a: string, b: string) => `谢谢${a}。我是${b}，我最近一直在研究这个话题。`,
    questions: ['我们从哪里说起？', '资料里是怎么说的？', '这为什么重要？', '能举个例子吗？', '最让你意外的是什么？'],
    cite: (title: string, s: string) => `根据${title}：${s}`,
    sum: (topic: string) => `总结一下，${topic}值得我们深入了解。`,
    bye: '今天就到这里，感谢收听。',
    motion: (a: string, topic: string) => `欢迎来到辩论节目。我是${a}，今天的辩题是：${topic}。我持正方观点。`,
    against: (b: string) => `我是${b}，我持反方观点。`,
    pro: (s: string) => `正方认为：${s}`,
    con: (s: string) => `反方认为：${s}`,
    counters: ['这忽视了成本。', '证据并没有看上去那么充分。', '这没有考虑由谁来承担代价。', '这在理论上可行，在实践中却不然。'],
    closeFor: (topic: string) => `我的总结：支持${topic}的理由依然成立。`,
    closeAgainst: '我的总结：反方的理由更有说服力。感谢收听。',
    outline: {
      quick: (t: string) => [`引言：${t}`, '资料怎么说', '问与答', '总结'],
      deep: (t: string) => [`引言：${t}`, '背景', '来源怎么说', '深入分析', '未解的问题', '总结'],
      debate: (t: string) => [`辩题：${t}`, '开场陈述', '正方观点', '反方观点', '总结陈词'],
    },
    title: { quick: (t: string) => t, deep: (t: string) => `深入解读：${t}`, debate: (t: string) => `辩论：${t}` },
    notes: (t: string) => `关于${t}的研究笔记。`,
    anyTopic: '今天的话题',
  },
  ja: {
    intro: (a: string, topic: string) => `番組へようこそ。${a}です。今日は${topic}について話します。`,
    solo: (a: string, topic: string) => `ようこそ。${a}です。今回のテーマは${topic}です。`,
    reply: (a: string, b: string) => `ありがとう、${a}さん。${b}です。このテーマをずっと調べてきました。`,
    questions: [
      'どこから始めましょうか？',
      '資料には何と書いてありますか？',
      'なぜそれが重要なのですか？',
      '例を挙げてもらえますか？',
      '一番驚いたことは何ですか？',
    ],
    cite: (title: string, s: string) => `${title}によると、${s}`,
    sum: (topic: string) => `まとめると、${topic}はよく理解する価値があります。`,
    bye: '今日はここまでです。ありがとうございました。',
    motion: (a: string, topic: string) => `討論番組へようこそ。${a}です。今日の論題は${topic}です。私は賛成の立場です。`,
    against: (b: string) => `${b}です。私は反対の立場です。`,
    pro: (s: string) => `賛成の理由：${s}`,
    con: (s: string) => `反対の理由：${s}`,
    counters: [
      'それはコストを見落としています。',
      '証拠は見た目ほど確かではありません。',
      '誰が負担するのかを無視しています。',
      '理論上は正しくても実際には機能しません。',
    ],
    closeFor: (topic: string) => `私の結論：${topic}に賛成する理由は揺らぎません。`,
    closeAgainst: '私の結論：反対の理由の方が説得力があります。ありがとうございました。',
    outline: {
      quick: (t: string) => [`はじめに：${t}`, '資料の内容', '質疑応答', 'まとめ'],
      deep: (t: string) => [`はじめに：${t}`, '背景', '情報源の内容', '詳しく見る', '残る疑問', 'まとめ'],
      debate: (t: string) => [`論題：${t}`, '冒頭陳述', '賛成側の主張', '反対側の主張', '最終陳述'],
    },
    title: { quick: (t: string) => t, deep: (t: string) => `徹底解説：${t}`, debate: (t: string) => `討論：${t}` },
    notes: (t: string) => `${t}に関する調査メモ。`,
    anyTopic: '今日のテーマ',
  },
} as const;

/** The address of the research note the mock cites for `topic` in deep mode (example.org: reserved, never a real page). */
const researchUrl = (topic: string, n: number) =>
  `https://example.org/research/${encodeURIComponent(wellFormed(cutText(topic.toLowerCase().replace(/\s+/g, '-'), 40)))}-${n}`;

/** `s` without its final stop, so it reads inside a sentence; English starts lower-case unless it begins with an acronym. */
function asTopic(s: string, language: PodcastLanguage): string {
  const t = s.replace(/[.!?。！？]+$/u, '').trim();
  return language === 'en' && /^\p{Lu}\p{Ll}/u.test(t) ? t.charAt(0).toLowerCase() + t.slice(1) : t;
}

/**
 * Writes an episode (assumed content): the topic from the query (or the first
 * source), the material from the sources (url sources read as the fake
 * article of their URL) or research notes, and the mode's script: `lines`
 * lines alternating between the speakers, the outline, the title.
 */
function writeEpisode(
  seed: number,
  input: { query?: string; sources: { type: 'text' | 'url'; content: string }[]; mode: PodcastMode; language: PodcastLanguage; names: string[] },
): Written {
  const { mode, language, names } = input;
  const p = phrases[language];
  const plan = podcastModePlans[mode];
  const references: { title: string; url: string }[] = [];
  const material: string[] = [];
  const texts: string[] = [];
  for (const s of input.sources) {
    if (s.type === 'text') {
      texts.push(s.content.trim());
      material.push(...sentences(s.content));
    } else {
      const article = fakeArticle(seed, s.content, language);
      const [heading, ...rest] = sentences(article);
      references.push({ title: titleOf(heading ?? s.content), url: s.content });
      texts.push(article);
      material.push(...rest);
    }
  }
  const query = input.query?.trim() ?? '';
  const topicSource = query !== '' ? query : (texts[0] ?? '');
  const topic = asTopic(titleOf(topicSource), language) || p.anyTopic;
  if (mode === 'deep')
    for (let n = 1; n <= 2; n++) {
      const url = researchUrl(topic, n);
      references.push({ title: `${p.notes(titleOf(topic)).replace(/[.。]$/u, '')} (${n})`, url });
      material.push(...sentences(fakeArticle(seed, url, language)).slice(1));
    }
  if (material.length === 0) material.push(...sentences(fakeArticle(seed, researchUrl(topic, 0), language)).slice(1));
  const content = cutText(texts.length > 0 ? texts.join('\n\n') : `${p.notes(topic)} ${material.join(' ')}`, 4_000);

  const two = names.length === 2;
  const [a, b] = names;
  const lines: { slot: number; content: string }[] = [];
  const say = (content: string) => lines.push({ slot: two ? lines.length % 2 : 0, content });
  fake(seed, ['podcast-script', mode, language, topic, ...names], (f) => {
    let k = 0;
    const next = () => material[k++ % material.length];
    if (mode === 'debate') {
      say(p.motion(a, topic));
      say(p.against(b));
      while (lines.length < plan.lines - 2) say(lines.length % 2 === 0 ? p.pro(next()) : p.con(`${next()} ${f.helpers.arrayElement(p.counters)}`));
      say(p.closeFor(topic));
      say(p.closeAgainst);
      return;
    }
    say(two ? p.intro(a, topic) : p.solo(a, topic));
    if (two) say(p.reply(a, b));
    const cited = references.length > 0 && mode === 'deep';
    while (lines.length < plan.lines - 2) {
      const asking = two && lines.length % 2 === 0;
      if (asking) say(f.helpers.arrayElement(p.questions));
      else {
        const s = next();
        say(cited && k % 3 === 1 ? p.cite(f.helpers.arrayElement(references).title, s) : s);
      }
    }
    say(p.sum(topic));
    say(p.bye);
  });
  return {
    title: p.title[mode](titleOf(topicSource) || p.anyTopic),
    outline: p.outline[mode](topic).slice(0, plan.outlineItems),
    source: { content, references },
    lines,
  };
}

// ---------------------------------------------------------------------------
// Presenting
// ---------------------------------------------------------------------------

/** The status detail of `r` at `now`. */
function messageOf(r: PodcastRecord, now: number): string {
  if (r.status === 'fail') return errorCatalog[(r.failReason ?? 'PODCAST_GENERATION_FAILED') as ErrorName]?.meaning ?? 'failed';
  if (r.status === 'success')
    return r.flow === 'two-stage' && r.contentStatus === 'text-success'
      ? `script ready: edit it if you like, then POST /v1/podcast/episodes/${r.id}/audio`
      : 'done';
  if (r.stage > 1 || shown(r, textAt(r), now)) return 'rendering the audio';
  if (!shown(r, r.sourcesAt, now)) return 'reading the sources';
  const items = countShown(r, r.outlineAt, now);
  if (items < r.outline.length) return `writing the outline (${items} of ${r.outline.length} items)`;
  return `writing the script (${countShown(r, r.linesAt, now)} of ${r.lines.length} lines)`;
}

/** The credits `r` has consumed by `now`: what is captured, plus a one-shot episode's script once written. */
function creditsOf(r: PodcastRecord, now: number): number {
  if (r.flow === 'one-shot' && r.status === 'pending' && shown(r, textAt(r), now)) return r.scriptCredits;
  return r.charged;
}

/** The episode as the API answers it at `ctx.now`, with this request's absolute URLs. */
function presentEpisode(r: PodcastRecord, ctx: Pick<ServiceContext, 'url' | 'now'>): PodcastEpisode {
  const now = ctx.now;
  const read = shown(r, r.sourcesAt, now);
  const items = countShown(r, r.outlineAt, now);
  const written = countShown(r, r.linesAt, now);
  const audio = r.status === 'success' && r.audio !== undefined;
  return {
    episodeId: r.id,
    createdAt: r.createdAt,
    processStatus: r.status,
    ...(r.contentStatus !== undefined ? { contentStatus: r.contentStatus } : {}),
    failCode: r.failCode,
    message: messageOf(r, now),
    ...(r.completedTime !== undefined ? { completedTime: r.completedTime } : {}),
    credits: creditsOf(r, now),
    ...(read ? { title: r.title, sourceProcessResult: { content: r.source.content, references: r.source.references } } : {}),
    ...(items > 0 ? { outline: outlineText(r.outline.slice(0, items)) } : {}),
    ...(shown(r, textAt(r), now) ? { cover: ctx.url(mediaOf(r.id, 'cover.png')) } : {}),
    ...(audio
      ? {
          audioUrl: ctx.url(mediaOf(r.id, 'audio.mp3')),
          audioStreamUrl: ctx.url(mediaOf(r.id, 'audio.m3u8')),
          subtitlesUrl: ctx.url(mediaOf(r.id, 'subtitles.srt')),
        }
      : {}),
    ...(written > 0 ? { scripts: r.lines.slice(0, written).map((l) => lineView(r, l)) } : {}),
  };
}

const outlineText = (items: readonly string[]) => items.map((s, i) => `${i + 1}. ${s}`).join('\n');
const lineView = (r: PodcastRecord, l: { slot: number; content: string }) => ({
  speakerId: r.slots[l.slot].speakerId,
  speakerName: r.slots[l.slot].speakerName,
  content: l.content,
});

// ---------------------------------------------------------------------------
// Creating
// ---------------------------------------------------------------------------

/** The rendered lines of `r`'s script. */
const spoken = (r: PodcastRecord): SpokenLine[] =>
  r.lines.map((l) => ({ speakerId: r.slots[l.slot].speakerId, variant: r.slots[l.slot].variant, text: l.content, frames: lineFrames(l.content, r.speed) }));

/** Script characters (code points) of `r`. */
const scriptChars = (r: Pick<PodcastRecord, 'lines'>) => r.lines.reduce((n, l) => n + charCount(l.content), 0);

/** The forced failure of a create or an audio call, if any (the router has checked `error` against the operation's reasons). */
function forcedFailure(ctx: ServiceContext, fallback: ErrorName): string | undefined {
  return ctx.forcing.outcome === 'failed' ? (ctx.forcing.error ?? fallback) : undefined;
}

/**
 * Creates an episode of either flow: checks the speakers (37003; with
 * `languageMustMatch`, 37002 for a speaker of another language), writes it,
 * reserves its price (37004 when short, nothing taken) and starts it.
 */
function createEpisode(ctx: ServiceContext, body: PodcastRequest, flow: PodcastRecord['flow']): string {
  const { engine, now } = ctx;
  const voices = body.speakers.map((s, i) => voiceOf(ctx, s.speakerId, `speakers[${i}].speakerId`, 'PODCAST_SPEAKER_NOT_FOUND'));
  if (flow === 'two-stage')
    voices.forEach((v, i) => {
      if (v.language !== body.language)
        throw new ApiError(
          'SPEAKER_LANGUAGE_MISMATCH',
          `Speaker language mismatch: speakers[${i}].speakerId ${v.speakerId} speaks ${v.language}, and language is ${body.language}; choose a voice of ${body.language} (GET /v1/speakers/list?language=${body.language})`,
        );
    });
  const sources = body.sources ?? [];
  const language = body.language ?? inferLanguage([body.query ?? '', ...sources.filter((s) => s.type === 'text').map((s) => s.content)].join(' '));
  const variants = distinctVariants(voices);
  const slots = voices.map((v) => ({ speakerId: v.speakerId, speakerName: v.name, variant: variants.get(v.speakerId)! }));
  const written = writeEpisode(engine.seed, {
    query: body.query,
    sources,
    mode: body.mode,
    language: podcastWritingLanguage(language),
    names: slots.map((s) => s.speakerName),
  });
  const plan = podcastModePlans[body.mode];
  const sourcesAt = now + plan.sourcesMs;
  const outlineAt = written.outline.map((_, i) => sourcesAt + (i + 1) * plan.outlineItemMs);
  const linesAt = written.lines.map((_, i) => outlineAt[outlineAt.length - 1] + (i + 1) * plan.lineMs);
  const audioCredits = podcastAudioCredits(scriptChars(written));
  const credits = flow === 'one-shot' ? plan.scriptCredits + audioCredits : plan.scriptCredits;

  const id = kit.nextId(ctx);
  kit.reserve(ctx, id, credits, 'PODCAST_INSUFFICIENT_CREDITS', `podcast ${flow} ${body.mode}, ${written.lines.length} lines`);
  const r = kit.create(ctx, id, 'pending', {
    flow,
    mode: body.mode,
    language,
    speed: body.speed,
    slots,
    ...written,
    sourcesAt,
    outlineAt,
    linesAt,
    stage: 1,
    scriptCredits: plan.scriptCredits,
    audioCredits,
    charged: 0,
    failCode: 0,
  });
  const textDone = textAt(r) - now;
  const failWith = forcedFailure(ctx, 'PODCAST_GENERATION_FAILED');
  if (ctx.forcing.outcome === 'stuck') r.haltAt = now;
  // a forced failure comes halfway through the script: the lines before it are shown, then the stage fails
  if (failWith) r.haltAt = linesAt[Math.floor(linesAt.length / 2)];
  if (flow === 'one-shot') r.rendering = spoken(r);
  kit.action(engine, r, now + podcastAudioSchedule.timeoutMs + 1, 'timeout:1');
  kit.run(
    engine,
    r,
    {
      steps: [{ status: 'success', afterMs: flow === 'one-shot' ? textDone + podcastRenderMs(durationOf(r.rendering!)) : textDone }],
      ...(failWith ? { failure: { atStep: 0, reason: failWith, afterMs: r.haltAt! - now } } : {}),
      ...(ctx.forcing.outcome === 'stuck' ? { stuckBefore: 0 } : {}),
    },
    now,
  );
  return id;
}

/** Checks an edited script against `r`'s: as many lines, the same speaker on each, at most 20,000 characters. Errors: PODCAST_INVALID_PARAMETERS naming the line. */
function checkEdit(r: PodcastRecord, scripts: { content: string; speakerId: string }[]): void {
  const bad = (message: string) => new ApiError('PODCAST_INVALID_PARAMETERS', message);
  if (scripts.length !== r.lines.length)
    throw bad(`scripts has ${scripts.length} lines; the episode's script has ${r.lines.length}: keep every line, in order, and change only content`);
  scripts.forEach((line, i) => {
    const expected = r.slots[r.lines[i].slot].speakerId;
    if (line.speakerId !== expected)
      throw bad(
        `scripts[${i}].speakerId is ${line.speakerId}; line ${i} of the episode is spoken by ${expected}: speakerId values stay exactly as returned, only content may change`,
      );
  });
  const total = scripts.reduce((n, l) => n + charCount(l.content), 0);
  if (total > SPEECH_MAX_CHARS)
    throw bad(`scripts: the combined content is ${total.toLocaleString('en-US')} characters; at most ${SPEECH_MAX_CHARS.toLocaleString('en-US')}`);
}

/** Why `r` cannot render audio now, or undefined when it can. */
function audioRefusal(r: PodcastRecord): string | undefined {
  if (r.flow === 'one-shot')
    return `episode ${r.id} is one-shot: its audio is made with it; the audio call belongs to the two-stage flow (POST /v1/podcast/episodes/text-content)`;
  if (r.contentStatus === undefined) return `the script of episode ${r.id} is still being written; poll it until contentStatus is text-success`;
  if (r.contentStatus === 'text-fail') return `the script of episode ${r.id} failed (failCode ${r.failCode}); there is nothing to render: create a new episode`;
  if (r.status === 'pending') return `the audio of episode ${r.id} is rendering; poll it until contentStatus is audio-success or audio-fail`;
  return undefined;
}

/** The event source of the text stream of `id`: items as they appear, then done. */
function textSource(engine: Engine, id: string, event: 'script' | 'outline') {
  let sent = 0;
  return {
    // woken by changes of this episode (and clock jumps) only, not by every request
    topic: id,
    poll(now: number) {
      const r = kit.find(engine, id);
      if (!r) return { events: [{ event: 'done' as const, data: { episodeId: id, complete: false, count: sent, failCode: 0 } }], done: true };
      const times = event === 'script' ? r.linesAt : r.outlineAt;
      const upTo = countShown(r, times, now);
      const events = [];
      for (; sent < upTo; sent++)
        events.push(
          event === 'script'
            ? { event: 'script' as const, data: { index: sent, ...lineView(r, r.lines[sent]) } }
            : { event: 'outline' as const, data: { index: sent, content: r.outline[sent] } },
        );
      const complete = sent === times.length;
      const failed = r.haltAt !== undefined && r.status === 'fail' && r.stage === 1;
      if (complete || failed) {
        events.push({ event: 'done' as const, data: { episodeId: id, complete, count: sent, failCode: complete ? 0 : r.failCode } });
        return { events, done: true };
      }
      // the next piece's time, when it will appear (a halted text shows nothing more)
      const due = times[sent];
      const nextAt = due < (r.haltAt ?? Number.POSITIVE_INFINITY) ? due : undefined;
      return { events, done: false, ...(nextAt !== undefined ? { nextAt } : {}) };
    },
  };
}

/** The episode `id` if its audio is ready (media routes), with an id that names this render. */
function readyAudio(engine: Engine, id: string) {
  const r = kit.find(engine, id);
  return r?.status === 'success' && r.audio ? { id: `${r.id}/${r.stage}`, owner: r.owner, lines: r.audio } : undefined;
}

/** The episode `id` if its script is written (the cover appears with it). */
function written(engine: Engine, id: string) {
  const r = kit.find(engine, id);
  return r && shown(r, textAt(r), engine.clock.now()) ? r : undefined;
}

const notFound = { notFound: 'PODCAST_EPISODE_NOT_FOUND', field: 'episodeId' } as const;

/** The saved records of the area's stores: checked before a saved state is loaded. */
const podcastRecordSchema = taskRecordSchema(episodeStatuses, {
  flow: z.enum(['one-shot', 'two-stage']),
  mode: z.string(),
  language: z.string(),
  speed: z.number(),
  slots: z.array(z.unknown()),
  title: z.string(),
  outline: z.array(z.string()),
  source: z.strictObject({ content: z.string(), references: z.array(z.strictObject({ title: z.string(), url: z.string() })) }),
  lines: z.array(z.looseObject({})),
  sourcesAt: z.number(),
  outlineAt: z.array(z.number()),
  linesAt: z.array(z.number()),
  haltAt: z.number().optional(),
  stage: z.number().int().min(1),
  scriptCredits: z.number(),
  audioCredits: z.number(),
  charged: z.number(),
  contentStatus: z.unknown().optional(),
  failCode: z.number(),
  failReason: z.string().optional(),
  completedTime: z.number().optional(),
  rendering: z.array(z.looseObject({})).optional(),
  audio: z.array(z.looseObject({})).optional(),
});

const createPodcastEpisode: Handler<'createPodcastEpisode'> = ({ body }, ctx) => {
  return { episodeId: createEpisode(ctx, body, 'one-shot') };
};

const createPodcastTextContent: Handler<'createPodcastTextContent'> = ({ body }, ctx) => {
  const episodeId = createEpisode(ctx, body, 'two-stage');
  return { episodeId, message: 'writing the script; poll the episode until contentStatus is text-success, then POST its /audio' };
};

const getPodcastEpisode: Handler<'getPodcastEpisode'> = ({ params }, ctx) => {
  return presentEpisode(kit.own(ctx, params.episodeId, notFound), ctx);
};

const createPodcastAudio: Handler<'createPodcastAudio'> = ({ params, body }, ctx) => {
  const { engine, now } = ctx;
  const r = kit.own(ctx, params.episodeId, notFound);
  const refusal = audioRefusal(r);
  if (refusal) throw new ApiError('PODCAST_AUDIO_NOT_ALLOWED', refusal);
  if (body.scripts) checkEdit(r, body.scripts);
  const edited = body.scripts ? r.lines.map((l, i) => ({ slot: l.slot, content: body.scripts![i].content })) : r.lines;
  const audioCredits = podcastAudioCredits(scriptChars({ lines: edited }));
  kit.reserve(ctx, r.id, audioCredits, 'PODCAST_INSUFFICIENT_CREDITS', `podcast audio, ${edited.length} lines`);
  const contentStatus = r.contentStatus!;
  r.lines = edited;
  r.audioCredits = audioCredits;
  r.stage += 1;
  r.audio = undefined;
  r.rendering = spoken(r);
  r.completedTime = undefined;
  r.failReason = undefined;
  r.failCode = 0;
  kit.move(engine, r, 'pending', now);
  const failWith = forcedFailure(ctx, 'PODCAST_GENERATION_FAILED');
  const renderMs = podcastRenderMs(durationOf(r.rendering));
  kit.action(engine, r, now + podcastAudioSchedule.timeoutMs + 1, `timeout:${r.stage}`);
  kit.run(
    engine,
    r,
    {
      steps: [{ status: 'success', afterMs: renderMs }],
      ...(failWith ? { failure: { atStep: 0, reason: failWith, afterMs: Math.round(renderMs / 2) } } : {}),
      ...(ctx.forcing.outcome === 'stuck' ? { stuckBefore: 0 } : {}),
    },
    now,
  );
  return { episodeId: r.id, contentStatus };
};

const streamPodcastText: Handler<'streamPodcastText'> = ({ params, query }, ctx) => {
  const r = kit.own(ctx, params.episodeId, notFound);
  return textSource(ctx.engine, r.id, query.event);
};

/** The five podcast operations. Errors: 37001 (rules), 37002 (language mismatch), 37003 (voice), 37004 (credits), 37005 (not found), 37006 (audio not allowed now). */
export const podcastService: Service<'createPodcastEpisode' | 'createPodcastTextContent' | 'getPodcastEpisode' | 'createPodcastAudio' | 'streamPodcastText'> = {
  kits: [kit],
  records: { podcast: podcastRecordSchema },
  handlers: {
    createPodcastEpisode,
    createPodcastTextContent,
    getPodcastEpisode,
    createPodcastAudio,
    streamPodcastText,
  },

  media: episodeMediaRoutes(mediaBase, { audio: readyAudio, cover: written }),
};
