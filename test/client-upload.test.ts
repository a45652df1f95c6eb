/**
 * Uploads (client/upload.ts, client/node.ts), in-process and over HTTP: every
 * multipart operation of the document (voice cloning, the music uploads, music
 * analysis) sent by `client.call(op, { body })` with files given as bytes
 * (Uint8Array, a Node Buffer, an ArrayBuffer), a Blob, a File and, in Node, a
 * path (fileFromPath); the mock accepts each, and its journal shows each file
 * part with the name and the size sent. A wrong value in a file field is a
 * TypeError naming the field, before anything is sent.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import spec from '../spec/openapi.json' with { type: 'json' };
import { toFormData, type UploadOperationId } from '../client/index.ts';
import { fileFromPath } from '../client/node.ts';
import { clientHarness, transports, type ClientHarness } from './client-harness.ts';
import { magicFiles, mp3Bytes, wavBytes } from './factories.ts';

const dir = mkdtempSync(join(tmpdir(), 'mediagen-client-upload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let h: ClientHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const mp3 = mp3Bytes({ seconds: 5 }) as Uint8Array<ArrayBuffer>;
const wav = wavBytes(6) as Uint8Array<ArrayBuffer>;

/** The journaled body of the last request of `operationId`: its fields, files as {filename, mimeType, size}. */
async function lastBody(operationId: string): Promise<Record<string, unknown>> {
  const journal = (await h!.control.listRequests({ query: { operationId, limit: 1 } })) as { items: { body?: Record<string, unknown> }[] };
  return journal.items[0].body!;
}

/** The multipart operations of the document. */
const multipartOps = Object.values(spec.paths as Record<string, Record<string, { operationId?: string; requestBody?: { content: Record<string, unknown> } }>>)
  .flatMap((item) => Object.values(item))
  .filter((op) => op?.requestBody?.content['multipart/form-data'])
  .map((op) => op.operationId!);

describe.each(transports)('uploads (%s)', (transport) => {
  /** Each multipart operation: the body the test sends (files of every kind) and the files the journal must show. */
  const cases: Record<string, () => Promise<{ body: Record<string, unknown>; files: Record<string, { filename: string; size: number }[]> }>> = {
    createVoiceClone: async () => ({
      // two recordings: bytes (a Node Buffer) and a File
      body: { audioFiles: [Buffer.from(wav), new File([wav], 'ava.wav', { type: 'audio/wav' })], language: 'en', consentConfirmed: true },
      files: {
        audioFiles: [
          { filename: 'audioFiles-1', size: wav.length },
          { filename: 'ava.wav', size: wav.length },
        ],
      },
    }),
    recognizeMusic: async () => ({ body: { audio: new Blob([mp3]) }, files: { audio: [{ filename: 'audio', size: mp3.length }] } }),
    describeMusic: async () => {
      writeFileSync(join(dir, 'song.mp3'), mp3);
      return { body: { audio: await fileFromPath(join(dir, 'song.mp3')) }, files: { audio: [{ filename: 'song.mp3', size: mp3.length }] } };
    },
    separateMusicStems: async () => ({
      body: { audio: mp3.slice().buffer, model: 'audio-separation-2' },
      files: { audio: [{ filename: 'audio', size: mp3.length }] },
    }),
    generateInstrumental: async () => ({
      body: { referenceAudio: new File([mp3], 'ref.mp3', { type: 'audio/mpeg' }) },
      files: { referenceAudio: [{ filename: 'ref.mp3', size: mp3.length }] },
    }),
    generateSoundtrack: async () => ({
      body: { image: magicFiles.jpeg, prompt: 'gentle strings' },
      files: { image: [{ filename: 'image', size: magicFiles.jpeg.length }] },
    }),
    generateTrack: async () => ({
      body: { generateType: 'Bass', prompt: 'a walking bass line', audio: wav, generateStart: 1, generateEnd: 4 },
      files: { audio: [{ filename: 'audio', size: wav.length }] },
    }),
    remixMusic: async () => ({
      body: { lyrics: '[Verse]\nNew words for an old tune', prompt: 'upbeat disco', audio: new Uint8Array(mp3) },
      files: { audio: [{ filename: 'audio', size: mp3.length }] },
    }),
  };

  it('covers every multipart operation of the document with files', () => {
    expect(multipartOps.filter((op) => op !== 'extendMusic').sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(Object.keys(cases))('%s: the body built from files is accepted, each file as sent', async (op) => {
    h = await clientHarness(transport);
    const { body, files } = await cases[op]();
    const data = await h.client.call(op as UploadOperationId, { body });
    expect(data).toBeTruthy();
    const seen = await lastBody(op);
    for (const [field, expected] of Object.entries(files)) {
      const got = ([] as { filename: string; size: number }[]).concat(seen[field] as never);
      expect(
        got.map((f) => ({ filename: f.filename, size: f.size })),
        field,
      ).toEqual(expected);
    }
    // the other fields as text, read back as the operation reads them (multipart sends a line break as CR LF)
    for (const [k, v] of Object.entries(body)) if (!(k in files)) expect(String(seen[k]).replace(/\r\n/g, '\n'), k).toBe(String(v));
  });

  it('a multipart create answered 429 is sent again whole when the caller opts in (the same files)', async () => {
    h = await clientHarness(transport);
    await h.control.addScenario({ body: { operationId: 'createVoiceClone', code: 429 } });
    const task = await h.client.call('createVoiceClone', { body: { audioFiles: [wav], language: 'en', consentConfirmed: true }, retry: true });
    expect(task.status).toBe('pending');
    // the voice-clone 429 says 2 s (document 2, "Errors")
    expect(h.sleeps).toEqual([2_000]);
    const journal = (await h.control.listRequests({ query: { operationId: 'createVoiceClone' } })) as {
      items: { status: number; body?: { audioFiles: unknown } }[];
    };
    // the forced 429 is answered before the body is read; the retry carries the whole file
    expect(journal.items.map((r) => [r.status, r.body?.audioFiles])).toEqual([
      [429, undefined],
      [200, [{ filename: 'audioFiles-1', mimeType: expect.any(String), size: wav.length }]],
    ]);
  });

  it('extendMusic (a multipart operation without files) sends its fields as text', async () => {
    h = await clientHarness(transport);
    const song = await h.client.call('generateMusic', { body: { prompt: 'warm indie pop', lyrics: '[Verse]\nla la', title: 'T' } });
    await h.client.waitFor(song);
    await h.client.call('extendMusic', { body: { taskId: song.taskId, trackIndex: 0, prompt: 'a longer outro' } });
    expect(await lastBody('extendMusic')).toMatchObject({ taskId: song.taskId, trackIndex: 0, prompt: 'a longer outro' });
  });
});

describe('toFormData', () => {
  it('refuses a value that is not a file in a file field, and a file in a text field, naming the field', () => {
    expect(() => toFormData('recognizeMusic', { audio: 'song.mp3' as never })).toThrow(/recognizeMusic: audio must be a File, a Blob or bytes/);
    expect(() => toFormData('createVoiceClone', { audioFiles: [wav, 'x' as never], language: 'en', consentConfirmed: true })).toThrow(/audioFiles\[1\]/);
    expect(() => toFormData('remixMusic', { lyrics: wav as never, prompt: 'p' })).toThrow(/lyrics is not a file field/);
    expect(() => toFormData('generateInstrumental', { referenceAudio: [mp3] as never })).toThrow(/takes one file/);
  });

  it('fileFromPath of a missing file rejects with the file system error', async () => {
    await expect(fileFromPath(join(dir, 'missing.mp3'))).rejects.toThrow(/ENOENT/);
  });
});
