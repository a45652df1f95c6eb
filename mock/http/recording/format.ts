/**
 * The recording file of `--record FILE` and `--replay FILE`
 * (docs/guides/proxy.md, "Recording a session"): one JSON document,
 * `{format: 'mediagen-recording', version: 1, ...}`, holding the exchanges
 * that passed through the proxy (requests and answers, secrets redacted), each
 * task's observed status sequence with its timings, and the media its answers
 * pointed to, stored once by content hash (sha256, base64 inside the file).
 * A file is validated in full with Zod before it is used: a broken one is
 * refused with a message naming the file, the path of the first problems and
 * the rule, and a stored file whose bytes do not hash to its name is refused
 * too. A new version is needed when the saved shape changes; a file of
 * another version is refused, never guessed (as decisions/0010-saved-state.md
 * does for the state file).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { readJsonFile } from '../json-file.ts';

export const RECORDING_FORMAT = 'mediagen-recording';
export const RECORDING_VERSION = 1;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in 64 lower-case hex digits');
const headers = z.record(z.string(), z.string());
/** Where the owner of a request is named: the redacted key's reference (`key-1`), or null for a request without a key. */
const ownerRef = z
  .string()
  .regex(/^key-\d+$/, 'an owner reference key-<n>')
  .nullable();

/** A body as stored: JSON (redacted), or bytes kept in the media table by hash, or bytes left out (a multipart upload). */
export const StoredBody = z.union([
  z.strictObject({ json: z.unknown() }),
  z.strictObject({ media: sha256 }),
  z.strictObject({ omitted: z.strictObject({ contentType: z.string(), size: z.number().int().min(0), sha256 }) }),
]);
export type StoredBody = z.infer<typeof StoredBody>;

/** One exchange: the request (secrets redacted) and the answer, `atMs` after the session's first request. */
export const RecordedExchange = z.strictObject({
  seq: z.number().int().min(0),
  operationId: z.string().min(1),
  method: z.string().min(1),
  path: z.string().startsWith('/'),
  query: z.string(),
  owner: ownerRef,
  requestHeaders: headers,
  requestBody: StoredBody.optional(),
  status: z.number().int().min(100).max(599),
  responseHeaders: headers,
  responseBody: StoredBody,
  atMs: z.number().int().min(0),
  durationMs: z.number().int().min(0),
  fromFallback: z.boolean(),
});
export type RecordedExchange = z.infer<typeof RecordedExchange>;

/** One status of a task, first seen `atMs` after its create was sent, in the answer of exchange `seq`. */
export const RecordedStatus = z.strictObject({ status: z.string().min(1), atMs: z.number().int().min(0), seq: z.number().int().min(0) });

/** A task the session created: its create, how it is read, and the statuses observed in order. */
export const RecordedTask = z.strictObject({
  taskId: z.string().min(1),
  /** The other ids of the create answer (an episodeId beside a taskId), mapped with the task's when it is replayed under a fresh id. */
  otherIds: z.array(z.string().min(1)),
  operationId: z.string().min(1),
  createSeq: z.number().int().min(0),
  pollOperationId: z.string().min(1),
  statusField: z.string().min(1),
  owner: ownerRef,
  statuses: z.array(RecordedStatus).min(1),
});
export type RecordedTask = z.infer<typeof RecordedTask>;

/** A media file an answer pointed to: its URL (signature redacted), and its bytes when they were stored. */
export const RecordedMedia = z.strictObject({
  url: z.string().url(),
  contentType: z.string(),
  size: z.number().int().min(0),
  sha256: sha256.optional(),
  /** Why the bytes are not in the file: over the per-file cap, over the total cap, or the fetch failed. */
  notStored: z.string().optional(),
});
export type RecordedMedia = z.infer<typeof RecordedMedia>;

export const Recording = z
  .strictObject({
    format: z.literal(RECORDING_FORMAT),
    version: z.literal(RECORDING_VERSION),
    /** The upstream's origin (no credentials), when the recorder was told it. */
    upstream: z.string().optional(),
    /** What was redacted, with how many times: nothing secret is in the file. */
    redactions: z.array(z.strictObject({ what: z.string().min(1), count: z.number().int().min(1) })),
    /** The keys seen, by reference only (the key itself is never written). */
    owners: z.array(z.string().regex(/^key-\d+$/, 'an owner reference key-<n>')),
    exchanges: z.array(RecordedExchange),
    /** Exchanges past the recorder's bound, counted and not kept. */
    droppedExchanges: z.number().int().min(1).optional(),
    tasks: z.array(RecordedTask),
    media: z.array(RecordedMedia),
    /** The stored bytes by sha256, base64. */
    blobs: z.record(sha256, z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64')),
  })
  .superRefine((r, ctx) => {
    const seqs = new Set(r.exchanges.map((x) => x.seq));
    const owners = new Set(r.owners);
    r.tasks.forEach((t, i) => {
      if (!seqs.has(t.createSeq)) ctx.addIssue({ code: 'custom', path: ['tasks', i, 'createSeq'], message: `exchange ${t.createSeq} is not in the file` });
      t.statuses.forEach((s, j) => {
        if (!seqs.has(s.seq)) ctx.addIssue({ code: 'custom', path: ['tasks', i, 'statuses', j, 'seq'], message: `exchange ${s.seq} is not in the file` });
        if (j > 0 && s.atMs < t.statuses[j - 1].atMs)
          ctx.addIssue({ code: 'custom', path: ['tasks', i, 'statuses', j, 'atMs'], message: 'statuses must be in the order they were seen' });
      });
      if (t.owner && !owners.has(t.owner)) ctx.addIssue({ code: 'custom', path: ['tasks', i, 'owner'], message: `${t.owner} is not in owners` });
    });
    r.exchanges.forEach((x, i) => {
      if (x.owner && !owners.has(x.owner)) ctx.addIssue({ code: 'custom', path: ['exchanges', i, 'owner'], message: `${x.owner} is not in owners` });
      for (const [k, b] of [
        ['requestBody', x.requestBody],
        ['responseBody', x.responseBody],
      ] as const)
        if (b && 'media' in b && !(b.media in r.blobs))
          ctx.addIssue({ code: 'custom', path: ['exchanges', i, k, 'media'], message: 'no stored bytes have this sha256' });
    });
    r.media.forEach((m, i) => {
      if (m.sha256 && !(m.sha256 in r.blobs)) ctx.addIssue({ code: 'custom', path: ['media', i, 'sha256'], message: 'no stored bytes have this sha256' });
      if (!m.sha256 && !m.notStored) ctx.addIssue({ code: 'custom', path: ['media', i], message: 'a media entry has its sha256 or says why it is not stored' });
    });
  });
export type Recording = z.infer<typeof Recording>;

/**
 * The recording `value` validated (from `source`, named in messages): the
 * format, then the version, then every field and the references between them.
 * Throws an Error naming the source, the path and the rule of the first
 * problems.
 */
export function parseRecording(value: unknown, source: string): Recording {
  const head = value as { format?: unknown; version?: unknown } | null;
  if (typeof head !== 'object' || head === null || head.format !== RECORDING_FORMAT)
    throw new Error(`${source}: not a recording (its "format" must be "${RECORDING_FORMAT}")`);
  if (head.version !== RECORDING_VERSION)
    throw new Error(`${source}: recording version ${JSON.stringify(head.version)} is not supported; this mock reads version ${RECORDING_VERSION}`);
  const r = Recording.safeParse(value);
  if (!r.success) {
    const issues = r.error.issues;
    throw new Error(
      `${source}: ${issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(document)'}: ${i.message}`)
        .join('; ')}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}`,
    );
  }
  // the bytes must be what their name says: a blob edited by hand would be served as the recorded media
  for (const [hash, b64] of Object.entries(r.data.blobs))
    if (createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex') !== hash)
      throw new Error(`${source}: blobs.${hash}: the bytes stored under this sha256 do not have it (the file was changed after it was recorded)`);
  return r.data;
}

/** Reads and validates a recording file. Throws an Error naming the file and what is wrong with it. */
export function readRecordingFile(path: string): Recording {
  return parseRecording(readJsonFile(path), path);
}
