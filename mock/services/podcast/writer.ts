/**
 * Writing a podcast episode: sources, outline and script lines from the
 * query and the sources, deterministic in the seed and the episode id.
 * Standard JavaScript only.
 */
import { podcastModePlans, type PodcastLanguage, type PodcastMode } from '../../../schemas/podcast.ts';
import { fake } from '../fake.ts';
import { fakeArticle, sentences, titleOf } from '../narration.ts';
import { cutText, wellFormed } from '../../../schemas/text.ts';
import { type PodcastRecord } from './record.ts';

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
export function writeEpisode(
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
