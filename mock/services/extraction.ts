/**
 * The content-extraction service (document 3, "Extraction task", "Content
 * extraction"): tasks on the task kit.
 *
 *   create (hold) -> processing --(10-30 s, by URL)--> completed (final charge captured, the rest released)
 *                              \--(forced failure)--> failed (every credit refunded)
 *   processing for 10 minutes (a forced stall) --(timeout)--> failed (41010)
 *
 * The page is written at creation, deterministic in the seed and the URL:
 * its kind (`extractionKindOf`), text, metadata and links; `summarize` and
 * `maxLength` shape what is delivered, and the final charge is priced on it.
 */
import { z } from 'zod';
import { ExtractionMetadata, extractionStatuses } from '../../schemas/extraction.ts';
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';
import {
  extractionCredits,
  extractionKindOf,
  extractionPricing,
  extractionSchedule,
  type ExtractionKind,
  type ExtractRequest,
} from '../../schemas/extraction.ts';
import { hash32 } from '../engine/rng.ts';
import type { Handler, Service } from './context.ts';
import { fake } from './fake.ts';
import { sentences } from './narration.ts';
import { cataloguedReason, forcedFailureReason, TaskKit, taskRecordSchema } from './tasks.ts';
import { cutText, formatCount } from '../../schemas/text.ts';

/** What an extraction delivers: the wire task's data. */
const Extracted = z.strictObject({ content: z.string(), metadata: ExtractionMetadata, references: z.array(z.string()) });
type Extracted = z.infer<typeof Extracted>;

/** A stored extraction, as saved (checked before a saved state is loaded). Plain data. */
const extractionRecordSchema = taskRecordSchema(extractionStatuses, {
  url: z.string(),
  result: Extracted,
  credits: z.number(),
  failCode: z.number().optional(),
  failReason: z.string().optional(),
});
type ExtractionRecord = z.infer<typeof extractionRecordSchema>;

const kit = new TaskKit<ExtractionRecord>(
  { area: 'extraction', idPrefix: 'ext', noun: 'extraction task', terminal: ['completed', 'failed'], failStatus: 'failed' },
  {
    onFail(_engine, r, reason) {
      r.failReason = reason;
      r.failCode = (cataloguedReason(reason) ?? errorCatalog.EXTRACTION_PAGE_UNREACHABLE).code;
    },
  },
);

// ---------------------------------------------------------------------------
// Pages
// ---------------------------------------------------------------------------

/** A fixed reference date for faker's dates (never the wall clock). */
const REF_DATE = '2026-01-01T00:00:00.000Z';

const zhSentences = [
  '本文介绍了一个新的产品思路。',
  '团队在过去一年里收集了大量用户反馈。',
  '数据显示，用户最关心的是稳定性和速度。',
  '为此，我们重新设计了整个流程。',
  '新的方案让开发周期缩短了一半。',
  '同时，测试覆盖率也有了明显提升。',
  '我们希望这些经验能对你有所帮助。',
  '欢迎在评论区留下你的想法。',
];

/** Words of the URL's last path segment, or undefined. */
function slugWords(url: URL): string | undefined {
  const slug = url.pathname.split('/').filter(Boolean).pop() ?? '';
  const words = slug
    .replace(/\.[a-z0-9]+$/i, '')
    .split(/[-_+]+/)
    .filter((w) => /^[\p{L}\p{N}]+$/u.test(w));
  return words.length > 1 ? words.join(' ') : undefined;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const stamp = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The page behind `url` (assumed content, deterministic in the seed and the
 * URL): a web article with links; a microblog profile with `count` posts; a
 * microblog post with replies; a video's description and timed transcript; an
 * official-account article in Chinese. At most `maxContentChars` characters.
 */
function readPage(seed: number, url: string, kind: ExtractionKind, count: number): Extracted {
  const u = new URL(url);
  return fake(seed, ['extraction', url, kind === 'microblog-profile' ? count : 0], (f) => {
    const author = f.person.fullName();
    const publishedAt = f.date.past({ years: 2, refDate: REF_DATE }).toISOString();
    const link = () => `https://example.org/${f.word.noun()}/${f.string.alphanumeric({ length: 8, casing: 'lower' })}`;
    const base = { kind, url, author, publishedAt, language: 'en' };
    const page = (): Extracted => {
      switch (kind) {
        case 'microblog-profile': {
          const user = u.pathname.split('/').filter(Boolean)[0];
          const refs: string[] = [];
          const posts = Array.from({ length: count }, (_, i) => {
            const withLink = i % 4 === 0;
            const ref = withLink ? link() : '';
            if (withLink) refs.push(ref);
            return `${i + 1}. [${stamp(f.date.past({ years: 1, refDate: REF_DATE }))}] ${capital(f.hacker.phrase())}${withLink ? ` ${ref}` : ''}`;
          });
          return {
            content: `@${user} (${author})\n${f.person.bio()}\n\n${posts.join('\n')}`,
            metadata: { ...base, title: `${author} (@${user})`, postCount: count },
            references: refs,
          };
        }
        case 'microblog-post': {
          const [user, , id] = u.pathname.split('/').filter(Boolean);
          const ref = link();
          const replies = Array.from({ length: 3 }, () => `@${f.internet.username()}: ${capital(f.hacker.phrase())}`);
          return {
            content: `@${user}: ${capital(f.hacker.phrase())} ${capital(f.hacker.phrase())} ${ref}\n\nReplies:\n${replies.join('\n')}`,
            metadata: { ...base, title: `Post by @${user}`, postId: id ?? u.pathname.split('/').pop() ?? '' },
            references: [ref],
          };
        }
        case 'video': {
          const title = capital(f.lorem.words({ min: 3, max: 6 }));
          const seconds = f.number.int({ min: 120, max: 900 });
          const lines: string[] = [];
          for (let t = 0; t < seconds; t += 15)
            lines.push(`[${String(Math.floor(t / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}] ${capital(f.hacker.phrase())}`);
          const ref = link();
          return {
            content: `${title}\n${f.lorem.sentences(2)} More at ${ref}\n\nTranscript:\n${lines.join('\n')}`,
            metadata: { ...base, title, channel: f.company.name(), durationSeconds: seconds },
            references: [ref],
          };
        }
        case 'official-account-article': {
          const account = `${f.company.name()}`;
          const body = f.helpers.shuffle([...zhSentences]).join('');
          return {
            content: `${zhSentences[0]}\n\n${body}`,
            metadata: { ...base, language: 'zh', title: zhSentences[0].replace(/。$/, ''), accountName: account },
            references: [],
          };
        }
        default: {
          const title = capital(slugWords(u) ?? f.lorem.words({ min: 3, max: 6 }));
          const refs = Array.from({ length: f.number.int({ min: 2, max: 4 }) }, link);
          const paragraphs = Array.from({ length: f.number.int({ min: 6, max: 12 }) }, (_, i) =>
            [f.lorem.paragraph({ min: 3, max: 6 }), ...(i < refs.length ? [`See ${refs[i]} for more.`] : [])].join(' '),
          );
          return { content: `${title}\n\n${paragraphs.join('\n\n')}`, metadata: { ...base, title }, references: refs };
        }
      }
    };
    const p = page();
    return { ...p, content: cutText(p.content, extractionPricing.maxContentChars) };
  });
}

/** What is delivered of `text`: a summary (the first quarter of its sentences, at least one) when asked, then at most `maxLength` characters. */
function deliver(text: string, summarize: boolean, maxLength: number): string {
  let out = text;
  if (summarize) {
    const s = sentences(text.replace(/\n+/g, ' '));
    out = `Summary: ${s.slice(0, Math.max(1, Math.ceil(s.length / 4))).join(' ')}`;
  }
  return cutText(out, maxLength);
}

/** A 24-character lowercase hex id: the engine's next id for the caller, widened with a hash of it (deterministic, unique). */
function hexId(base: string, seed: number): string {
  const hex = base.replace(/^[a-z]+_/, '');
  return (hex + hash32(seed, base).toString(16).padStart(8, '0')).slice(0, 24);
}

const notFound = { notFound: 'EXTRACTION_TASK_NOT_FOUND', field: 'taskId' } as const;

const createExtraction: Handler<'createExtraction'> = ({ body }: { body: ExtractRequest }, ctx) => {
  const { engine, now, forcing } = ctx;
  const url = body.source.uri;
  const kind = extractionKindOf(url);
  const page = readPage(engine.seed, url, kind, body.options.twitter.count);
  const content = deliver(page.content, body.options.summarize, body.options.maxLength);
  const credits = extractionCredits([...content].length);
  const id = hexId(kit.nextId(ctx), engine.seed);
  kit.reserve(ctx, id, extractionPricing.holdCredits, 'EXTRACTION_INSUFFICIENT_CREDITS', `extraction hold (${kind})`);
  const r = kit.create(ctx, id, 'processing', {
    url,
    result: { ...page, content },
    credits,
  });
  const { minMs, maxMs } = extractionSchedule;
  const afterMs = minMs + (hash32(engine.seed, url, 'extraction-time') % (maxMs - minMs + 1));
  const failWith = forcedFailureReason(ctx);
  kit.timeout(engine, r, now + extractionSchedule.timeoutMs, ['processing'], 'EXTRACTION_TIMED_OUT');
  kit.run(
    engine,
    r,
    {
      steps: [{ status: 'completed', afterMs }],
      charge: credits,
      ...(failWith ? { failure: { atStep: 0, reason: failWith } } : {}),
      ...(forcing.outcome === 'stuck' ? { stuckBefore: 0 } : {}),
    },
    now,
  );
  return { taskId: id };
};

const getExtraction: Handler<'getExtraction'> = ({ params }, ctx) => {
  const r = kit.own(ctx, params.taskId, notFound);
  const head = { taskId: r.id, status: r.status, createdAt: r.createdAt };
  // document 3, "Content extraction": success envelopes carry a short success text, the processing read's too
  if (r.status === 'processing') {
    ctx.message = 'processing';
    return head;
  }
  if (r.status === 'failed')
    return { ...head, failCode: r.failCode!, message: errorCatalog[(r.failReason ?? 'EXTRACTION_PAGE_UNREACHABLE') as ErrorName]?.meaning ?? 'failed' };
  ctx.message = `extracted ${formatCount([...r.result.content].length)} characters`;
  return { ...head, data: r.result, credits: r.credits };
};

/** The two extraction operations. Errors: 41001 (rules), 41002 (not found), 41003 (credits). */
export const extractionService: Service<'createExtraction' | 'getExtraction'> = {
  kits: [kit],
  records: { extraction: extractionRecordSchema },
  handlers: {
    createExtraction,
    getExtraction,
  },
};
