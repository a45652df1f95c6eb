/**
 * Speech in words, judged by its timing (docs/guides/media.md, "Speech"): a
 * mock given the eSpeak NG engine (mock/http/espeak.ts) speaks the scripts,
 * and Debian's ffmpeg (an independent decoder) decodes each file to 24 kHz
 * 16-bit samples. Where the samples carry energy above silence (10 ms windows
 * whose mean absolute level is over SILENCE) must agree with the answers:
 * every subtitle cue holds speech, and mostly speech; the audio is quiet where
 * one line ends and the next begins; a sentence's speech starts near its cue's
 * start; a longer text lasts proportionally longer; the decoded length is the
 * answer's `audioDuration`; two mocks render byte-identical files; ffmpeg
 * decodes every speech file (TTS mp3, opus, flac, aac, wav, pcm; /v1/speech; flow
 * speech; podcasts and their HLS; page-deck narration; generated audio; voice
 * demos) with no error. TTS flac decodes to the WAV answer's samples exactly,
 * opus to as many with its speech where the WAV's is, aac to the spoken length
 * in whole frames with its speech one frame later; a podcast's packed-MP3
 * HLS segments are its MP3's frames byte for byte; every catalogue language's
 * demo says its sentence within the 4-s clip.
 *
 * Pocketsphinx cannot transcribe eSpeak NG's voice, so the words themselves
 * are not checked; the timings are (the issue that asked for speech says so).
 * Skipped where espeak-ng or ffmpeg is missing, except in CI (CI=true), where
 * `.ci/run` installs both. Seed: document 2, "POST /v1/tts and POST
 * /v1/audio/speech", "POST /v1/speech", "Podcast episode", "Generated-audio
 * task"; document 3, "Page-deck episode".
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspeakSynth, espeakVersion } from '../mock/http/espeak.ts';
import { cloneForm, flowSpeechBody, pathOf, podcastBody, storybookBody } from './factories.ts';
import { startMock, type TestMock } from './helpers.ts';

const version = espeakVersion();
const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
const ready = version !== undefined && hasFfmpeg;

/** The bytes of `POST /v1/tts` on mock `m` for `input` in voice en_ava at speed 1, in `format` (expects 200). */
async function ttsBytes(m: TestMock, input: string, format: string): Promise<Uint8Array> {
  const r = await fetch(`${m.base}/v1/tts`, {
    method: 'POST',
    headers: { authorization: 'Bearer mg_test_secret1', 'content-type': 'application/json' },
    body: JSON.stringify({ input, voice: 'en_ava', response_format: format, speed: 1 }),
  });
  expect(r.status).toBe(200);
  return new Uint8Array(await r.arrayBuffer());
}

describe('espeak-ng and ffmpeg are installed in CI', () => {
  it.runIf(process.env.CI === 'true')('espeak-ng and ffmpeg run (.ci/run installs them)', () => {
    expect(version).toBeDefined();
    expect(hasFfmpeg).toBe(true);
  });
});

const run = promisify(execFile);
const RATE = 24_000;
const WINDOW = 240; // 10 ms
/** Mean absolute sample level above which a 10 ms window carries speech (about -50 dBFS; eSpeak NG's pauses decode near 0). */
const SILENCE = 100;

let dir: string;
let files = 0;

/** Decodes `bytes` with ffmpeg to 24 kHz mono s16le; `errors` is what ffmpeg printed at level error (empty when clean). */
async function decode(bytes: Uint8Array, inputArgs: string[] = []): Promise<{ samples: Int16Array; errors: string }> {
  const file = join(dir, `f${files++}`);
  writeFileSync(file, bytes);
  const { stdout, stderr } = await run('ffmpeg', ['-v', 'error', ...inputArgs, '-i', file, '-f', 's16le', '-ac', '1', '-ar', String(RATE), 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 256 * 1024 * 1024,
  });
  const b = stdout;
  return { samples: new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length - (b.length % 2))), errors: stderr.toString() };
}

/** True for each 10 ms window of `samples` that carries speech. */
function loudWindows(samples: Int16Array): boolean[] {
  const out: boolean[] = [];
  for (let at = 0; at + WINDOW <= samples.length; at += WINDOW) {
    let sum = 0;
    for (let i = at; i < at + WINDOW; i++) sum += Math.abs(samples[i]);
    out.push(sum / WINDOW > SILENCE);
  }
  return out;
}

/** Share of the windows from `startMs` to `endMs` that carry speech. */
function loudShare(loud: boolean[], startMs: number, endMs: number): number {
  const a = Math.floor(startMs / 10);
  const b = Math.min(loud.length, Math.ceil(endMs / 10));
  let n = 0;
  for (let i = a; i < b; i++) if (loud[i]) n++;
  return n / Math.max(1, b - a);
}

/** Cues of an SRT (start, end in ms, text): parsed here, independently of the mock's writer. */
function parseSrt(text: string): { startMs: number; endMs: number; text: string }[] {
  const ms = (t: string) => {
    const [h, m, s] = t.replace(',', '.').split(':');
    return Math.round((Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1000);
  };
  return text
    .trim()
    .split(/\r?\n\r?\n/)
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const [a, b] = lines[1].split(' --> ');
      return { startMs: ms(a), endMs: ms(b), text: lines.slice(2).join(' ') };
    });
}

async function bytesOf(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  expect(r.status).toBe(200);
  return new Uint8Array(await r.arrayBuffer());
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const LINES = [
  { speakerId: 'en_ava', content: 'Good morning, and welcome to the show.' },
  { speakerId: 'en_noah', content: 'Thanks for having me. Today we talk about mock servers and why frontend teams love them.' },
  { speakerId: 'en_ava', content: 'Let us start.' },
];

describe.runIf(ready)('speech in words: timing against ffmpeg', () => {
  let mock: TestMock;
  const figures: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'speech-timing-'));
    mock = await startMock({ speech: createEspeakSynth(version!) });
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
    console.log(`speech timing (espeak-ng ${version}):\n  ${figures.join('\n  ')}`);
  });

  it('POST /v1/speech: the MP3 decodes cleanly to audioDuration; each line cue is mostly speech; the audio is quiet where one line gives way to the next', async () => {
    const r = await mock.call('POST', '/v1/speech', { body: { scripts: LINES, speed: 1 } });
    expect(r.status).toBe(200);
    const { audioUrl, audioDuration, subtitlesUrl } = r.json.data as { audioUrl: string; audioDuration: number; subtitlesUrl: string };
    const { samples, errors } = await decode(await bytesOf(audioUrl));
    expect(errors).toBe('');
    expect(Math.abs((samples.length * 1000) / RATE - audioDuration)).toBeLessThanOrEqual(24);
    const cues = parseSrt(new TextDecoder().decode(await bytesOf(subtitlesUrl)));
    expect(cues.map((c) => c.text)).toEqual(LINES.map((l) => l.content));
    const loud = loudWindows(samples);
    const shares = cues.map((c) => loudShare(loud, c.startMs, c.endMs));
    for (const s of shares) expect(s).toBeGreaterThan(0.5);
    // the 150 ms around each line's end (its pause, shifted by the MP3 encoder's 46 ms delay) are mostly quiet
    const gaps = cues.slice(0, -1).map((c) => loudShare(loud, c.endMs - 100, c.endMs + 50));
    for (const g of gaps) expect(g).toBeLessThan(0.34);
    // outside the cues there is no speech: the audio ends with the last cue
    expect(loudShare(loud, cues.at(-1)!.endMs + 60, (samples.length * 1000) / RATE)).toBe(0);
    figures.push(
      `/v1/speech: speech share inside cues ${shares.map((s) => s.toFixed(2)).join(', ')}; at line changes ${gaps.map((g) => g.toFixed(2)).join(', ')}`,
    );
  });

  it('flow speech: each sentence cue starts where its speech starts (within 150 ms) and holds speech', async () => {
    const text = 'Mock servers let frontend teams work early. They keep their state between requests. A demo can run without a backend at all.';
    const r = await mock.call('POST', '/v1/flow-speech/episodes', { body: flowSpeechBody({ sources: [{ type: 'text', content: text }] }) });
    expect(r.status).toBe(200);
    const id = (r.json.data as { episodeId: string }).episodeId;
    await mock.advance(3_600_000);
    const ep = (await mock.call('GET', `/v1/flow-speech/episodes/${id}`)).json.data as { audioUrl: string; subtitlesUrl: string };
    const { samples, errors } = await decode(await bytesOf(ep.audioUrl));
    expect(errors).toBe('');
    const cues = parseSrt(new TextDecoder().decode(await bytesOf(ep.subtitlesUrl)));
    expect(cues).toHaveLength(3);
    const loud = loudWindows(samples);
    const onsets = cues.map((c) => {
      const first = loud.findIndex((l, i) => l && i * 10 >= c.startMs);
      return first * 10 - c.startMs;
    });
    for (const o of onsets) {
      expect(o).toBeGreaterThanOrEqual(0);
      expect(o).toBeLessThanOrEqual(150);
    }
    for (const c of cues) expect(loudShare(loud, c.startMs, c.endMs)).toBeGreaterThan(0.5);
    figures.push(`flow speech: speech onset after each sentence cue's start ${onsets.join(', ')} ms`);
  });

  it('a longer text takes proportionally longer (TTS wav, the samples ffmpeg decodes)', async () => {
    const sentence = 'The quick brown fox jumps over the lazy dog near the quiet river bank. ';
    const short = sentence.repeat(2).trim();
    const long = sentence.repeat(8).trim();
    const seconds = async (input: string) => {
      const r = await fetch(`${mock.base}/v1/tts`, {
        method: 'POST',
        headers: { authorization: 'Bearer mg_test_secret1', 'content-type': 'application/json' },
        body: JSON.stringify({ input, voice: 'en_ava', response_format: 'wav', speed: 1 }),
      });
      expect(r.status).toBe(200);
      const { samples, errors } = await decode(new Uint8Array(await r.arrayBuffer()));
      expect(errors).toBe('');
      const loud = loudWindows(samples);
      expect(loudShare(loud, 0, (samples.length * 1000) / RATE)).toBeGreaterThan(0.5);
      return samples.length / RATE;
    };
    const a = await seconds(short);
    const b = await seconds(long);
    const ratio = b / a;
    expect(ratio).toBeGreaterThan(3.4);
    expect(ratio).toBeLessThan(4.6);
    figures.push(
      `TTS wav: ${short.length} characters ${a.toFixed(2)} s, ${long.length} characters ${b.toFixed(2)} s (x${ratio.toFixed(2)} for x4 the text); ${((b / long.length) * 100).toFixed(2)} s per 100 characters`,
    );
  });

  it('two mocks render byte-identical speech (same seed, same espeak-ng)', async () => {
    const other = await startMock({ speech: createEspeakSynth(version!) });
    try {
      const urls = async (m: TestMock) => {
        const r = await m.call('POST', '/v1/speech', { body: { scripts: LINES, speed: 1.25 } });
        return (r.json.data as { audioUrl: string }).audioUrl;
      };
      const a = await bytesOf(await urls(mock));
      const b = await bytesOf(await urls(other));
      expect(sha(a)).toBe(sha(b));
      figures.push(`byte-identical across two mocks: yes (${a.length} bytes, sha256 ${sha(a).slice(0, 12)})`);
    } finally {
      await other.close();
    }
  });

  it('TTS opus and flac carry the words: flac decodes to the WAV answer sample for sample; opus to as many samples, its speech where the WAV has it', async () => {
    const input = 'Opus and FLAC speak too. Their words sit where the wave file has them.';
    const tts = (m: TestMock, format: string) => ttsBytes(m, input, format);
    const wav = await decode(await tts(mock, 'wav'));
    const flacBytes = await tts(mock, 'flac');
    const opusBytes = await tts(mock, 'opus');
    const flac = await decode(flacBytes);
    const opus = await decode(opusBytes);
    expect([wav.errors, flac.errors, opus.errors]).toEqual(['', '', '']);
    expect(sha(new Uint8Array(flac.samples.buffer))).toBe(sha(new Uint8Array(wav.samples.buffer))); // lossless
    expect(opus.samples.length).toBe(wav.samples.length);
    const a = loudWindows(wav.samples);
    const b = loudWindows(opus.samples);
    const agree = a.filter((l, i) => l === b[i]).length / a.length;
    expect(agree).toBeGreaterThan(0.9);
    // the speech starts and ends where the wav's does (within 20 ms): the pre-skip removed the encoder's delay
    const edges = (l: boolean[]) => [l.indexOf(true), l.lastIndexOf(true)];
    const [wavStart, wavEnd] = edges(a);
    const [opusStart, opusEnd] = edges(b);
    expect(Math.abs(opusStart - wavStart)).toBeLessThanOrEqual(2);
    expect(Math.abs(opusEnd - wavEnd)).toBeLessThanOrEqual(2);
    // byte-identical from a second mock
    const other = await startMock({ speech: createEspeakSynth(version!) });
    try {
      expect(sha(await tts(other, 'opus'))).toBe(sha(opusBytes));
      expect(sha(await tts(other, 'flac'))).toBe(sha(flacBytes));
    } finally {
      await other.close();
    }
    figures.push(
      `TTS ${(wav.samples.length / RATE).toFixed(2)} s: flac ${flacBytes.length} bytes = wav samples exactly; opus ${opusBytes.length} bytes, ${opus.samples.length} samples (wav ${wav.samples.length}), speech windows agree ${(agree * 100).toFixed(1)}%, speech from ${opusStart * 10} to ${opusEnd * 10} ms (wav ${wavStart * 10} to ${wavEnd * 10}); both byte-identical across two mocks`,
    );
  });

  it('TTS aac carries the words: ADTS that decodes cleanly to the spoken length in whole 1024-sample frames, its speech where the WAV has it one frame (42.7 ms) later; byte-identical across two mocks', async () => {
    const input = 'AAC speaks as well. Its words come one frame after the wave file has them.';
    const tts = (m: TestMock, format: string) => ttsBytes(m, input, format);
    const wav = await decode(await tts(mock, 'wav'));
    const aacBytes = await tts(mock, 'aac');
    const aac = await decode(aacBytes);
    expect([wav.errors, aac.errors]).toEqual(['', '']);
    // the file is the spoken length rounded to whole AAC frames (1024 samples at 24 kHz), as the tones were
    expect(aac.samples.length).toBe(Math.round(wav.samples.length / 1024) * 1024);
    // ADTS keeps the encoder's priming (1024 samples): the WAV's speech windows, 1024 samples later, are the AAC's
    const shifted = new Int16Array(aac.samples.length);
    shifted.set(wav.samples.subarray(0, Math.max(0, aac.samples.length - 1024)), 1024);
    const a = loudWindows(shifted);
    const b = loudWindows(aac.samples);
    const agree = a.filter((l, i) => l === b[i]).length / a.length;
    expect(agree).toBeGreaterThan(0.9);
    const [wavStart, aacStart] = [a.indexOf(true), b.indexOf(true)];
    expect(Math.abs(aacStart - wavStart)).toBeLessThanOrEqual(2);
    const other = await startMock({ speech: createEspeakSynth(version!) });
    try {
      expect(sha(await tts(other, 'aac'))).toBe(sha(aacBytes));
    } finally {
      await other.close();
    }
    figures.push(
      `TTS aac ${(aac.samples.length / RATE).toFixed(2)} s: ${aacBytes.length} bytes, ${aac.samples.length} samples decoded (wav ${wav.samples.length}), speech windows agree with the wav's one frame later ${(agree * 100).toFixed(1)}%, speech from ${aacStart * 10} ms (the wav's one frame later: ${wavStart * 10} ms); byte-identical across two mocks`,
    );
  });

  it('generated audio in ogg_opus: decodes cleanly to its audioDuration, with speech', async () => {
    const g = await mock.call('POST', '/v1/platform-voice/generate', {
      body: {
        text: '@音频1 Hello, this is the first voice.\n@音频2 And this is the second one.',
        voices: [
          { type: 'speaker', id: 'en_ava' },
          { type: 'speaker', id: 'en_noah' },
        ],
        audioConfig: { format: 'ogg_opus' },
      },
    });
    expect(g.status).toBe(202);
    await mock.advance(3_600_000);
    const t = (await mock.call('GET', `/v1/platform-voice/tasks/${(g.json.data as { taskId: string }).taskId}`)).json.data as Record<string, unknown>;
    const { audioUrl: url, audioDuration: duration } = t as { audioUrl: string; audioDuration: number }; // seconds
    const { samples, errors } = await decode(await bytesOf(url));
    expect(errors).toBe('');
    const ms = (samples.length * 1000) / RATE;
    expect(Math.abs(ms - duration * 1000)).toBeLessThanOrEqual(1);
    expect(loudShare(loudWindows(samples), 0, ms)).toBeGreaterThan(0.3);
    figures.push(`generated audio ogg_opus: ${ms.toFixed(1)} ms decoded, audioDuration ${duration} s`);
  });

  it("a podcast's HLS carries the episode MP3's words: its packed MP3 segments, ID3 tags stripped, are the MP3's bytes; each segment and the playlist decode cleanly", async () => {
    const pod = await mock.call('POST', '/v1/podcast/episodes', { body: podcastBody() });
    expect(pod.status).toBe(200);
    await mock.advance(3 * 3_600_000);
    const ep = (await mock.call('GET', `/v1/podcast/episodes/${(pod.json.data as { episodeId: string }).episodeId}`)).json.data as {
      audioUrl: string;
      audioStreamUrl: string;
    };
    const mp3 = await bytesOf(ep.audioUrl);
    const playlist = new TextDecoder().decode(await bytesOf(ep.audioStreamUrl));
    const uris = playlist.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(uris.length).toBeGreaterThan(1);
    expect(uris.every((u) => u.endsWith('.mp3'))).toBe(true);
    const bodies: Uint8Array[] = [];
    let segmentErrors = '';
    for (const u of uris) {
      const r = await fetch(new URL(u, ep.audioStreamUrl));
      expect(r.headers.get('content-type')).toMatch(/^audio\/mpeg/);
      const seg = new Uint8Array(await r.arrayBuffer());
      expect(String.fromCharCode(...seg.subarray(0, 3))).toBe('ID3');
      const tagSize = 10 + ((seg[6] << 21) | (seg[7] << 14) | (seg[8] << 7) | seg[9]); // syncsafe (ID3v2.4)
      bodies.push(seg.subarray(tagSize));
      segmentErrors += (await decode(seg)).errors;
    }
    expect(segmentErrors).toBe('');
    const joined = Buffer.concat(bodies);
    expect(sha(joined)).toBe(sha(mp3));
    // the playlist itself, as a player reads it over HTTP
    const { stdout, stderr } = await run('ffmpeg', ['-v', 'error', '-i', ep.audioStreamUrl, '-f', 's16le', '-ac', '1', '-ar', String(RATE), 'pipe:1'], {
      encoding: 'buffer',
      maxBuffer: 256 * 1024 * 1024,
    });
    expect(stderr.toString()).toBe('');
    const whole = await decode(mp3);
    expect(Math.abs(stdout.length / 2 - whole.samples.length)).toBeLessThanOrEqual(2 * 576);
    expect(loudShare(loudWindows(whole.samples), 0, (whole.samples.length * 1000) / RATE)).toBeGreaterThan(0.3);
    figures.push(
      `podcast HLS: ${uris.length} packed MP3 segments, ${joined.length} bytes of frames = the episode MP3 byte for byte; the playlist decodes to ${((stdout.length / 2 / RATE) * 1000).toFixed(0)} ms (the MP3 ${((whole.samples.length / RATE) * 1000).toFixed(0)} ms)`,
    );
  });

  it("speaker demos speak a sentence in the speaker's voice, every catalogue language, within the clip's 4 s; a clone's demo too", async () => {
    const list = await mock.call('GET', '/v1/speakers/list');
    expect(list.status).toBe(200);
    const speakers = JSON.stringify(list.json)
      .match(/"demoAudioUrl":"[^"]+"/g)!
      .map((m) => m.slice(16, -1));
    const firstOfEach = new Map<string, string>();
    for (const url of speakers) firstOfEach.set(/speakers\/([a-z]+)_/.exec(url)?.[1] ?? url, url);
    expect(firstOfEach.size).toBeGreaterThanOrEqual(12);
    const spans: string[] = [];
    const hashes = new Set<string>();
    for (const [language, url] of firstOfEach) {
      const bytes = await bytesOf(url);
      hashes.add(sha(bytes));
      const { samples, errors } = await decode(bytes);
      expect({ language, errors }).toEqual({ language, errors: '' });
      const ms = (samples.length * 1000) / RATE;
      expect(Math.abs(ms - 4000)).toBeLessThanOrEqual(24);
      const loud = loudWindows(samples);
      // the words, then quiet before the clip ends (the sentence fits in the clip: nothing cut)
      expect(loudShare(loud, 0, 1500), language).toBeGreaterThan(0.4);
      const last = loud.lastIndexOf(true) * 10;
      expect(last, language).toBeLessThan(3900);
      spans.push(`${language} ${last} ms`);
    }
    expect(hashes.size).toBe(firstOfEach.size);
    // a clone (French): the task's demo and, once confirmed as Camille, the voice's (which names her) speak
    const created = await mock.call('POST', pathOf('createVoiceClone'), { body: cloneForm({ language: 'fr' }) });
    expect(created.status).toBe(200);
    const taskId = (created.json.data as { taskId: string }).taskId;
    await mock.advance(60_000);
    const done = (await mock.call('GET', pathOf('getVoiceClone', { taskId }))).json.data as { demoAudioUrl: string };
    const confirmed = await mock.call('POST', pathOf('confirmVoiceClone'), { body: { taskId, name: 'Camille', gender: 'female' } });
    expect(confirmed.status).toBe(200);
    const taskDemo = await bytesOf(done.demoAudioUrl);
    const clone = await decode(taskDemo);
    expect(clone.errors).toBe('');
    expect(Math.abs((clone.samples.length * 1000) / RATE - 4000)).toBeLessThanOrEqual(24);
    expect(loudShare(loudWindows(clone.samples), 0, 1500)).toBeGreaterThan(0.4);
    const voices = JSON.stringify((await mock.call('GET', '/v1/speakers/list')).json);
    const voiceDemo = voices.match(/"demoAudioUrl":"([^"]+voice-clone\/speakers[^"]+)"/)?.[1];
    const named = await decode(await bytesOf(voiceDemo!));
    expect(named.errors).toBe('');
    expect(loudShare(loudWindows(named.samples), 0, 1500)).toBeGreaterThan(0.4);
    // the name makes the sentence longer
    expect(loudWindows(named.samples).lastIndexOf(true)).toBeGreaterThan(loudWindows(clone.samples).lastIndexOf(true));
    expect(hashes.has(sha(taskDemo))).toBe(false); // not a catalogue voice's clip
    spans.push(`clone (fr) ${loudWindows(clone.samples).lastIndexOf(true) * 10} ms`);
    figures.push(`speaker demos (speech ends at, of 4,000 ms): ${spans.join(', ')}`);
  });

  it('ffmpeg decodes every speech file with no error: TTS mp3, wav, pcm; a podcast; a page deck narration; generated audio mp3 and wav', async () => {
    const tts = async (format: string) => {
      const r = await fetch(`${mock.base}/v1/tts`, {
        method: 'POST',
        headers: { authorization: 'Bearer mg_test_secret1', 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'Speech in words. Decoded by ffmpeg.', voice: 'en_noah', response_format: format, speed: 1 }),
      });
      expect(r.status).toBe(200);
      return new Uint8Array(await r.arrayBuffer());
    };
    const inputs: { name: string; bytes: Uint8Array; args?: string[] }[] = [
      { name: 'tts mp3', bytes: await tts('mp3') },
      { name: 'tts wav', bytes: await tts('wav') },
      { name: 'tts pcm', bytes: await tts('pcm'), args: ['-f', 's16le', '-ar', '24000', '-ac', '1'] },
    ];
    const pod = await mock.call('POST', '/v1/podcast/episodes', { body: podcastBody() });
    expect(pod.status).toBe(200);
    const deck = await mock.call('POST', '/v1/storybook/episodes', { body: storybookBody() });
    expect(deck.status).toBe(200);
    const gen = await Promise.all(
      ['mp3', 'wav'].map((format) =>
        mock.call('POST', '/v1/platform-voice/generate', {
          body: {
            text: '@音频1 Hello, this is the first voice.\n@音频2 And this is the second one.',
            voices: [
              { type: 'speaker', id: 'en_ava' },
              { type: 'speaker', id: 'en_noah' },
            ],
            audioConfig: { format },
          },
        }),
      ),
    );
    for (const g of gen) expect(g.status).toBe(202);
    await mock.advance(3 * 3_600_000);
    const podData = (await mock.call('GET', `/v1/podcast/episodes/${(pod.json.data as { episodeId: string }).episodeId}`)).json.data as Record<string, unknown>;
    const deckData = (await mock.call('GET', `/v1/storybook/episodes/${(deck.json.data as { episodeId: string }).episodeId}`)).json.data as Record<
      string,
      unknown
    >;
    const audioUrlOf = (d: Record<string, unknown>): string => JSON.stringify(d).match(/"(http[^"]+\.mp3)"/)![1];
    inputs.push({ name: 'podcast mp3', bytes: await bytesOf(audioUrlOf(podData)) });
    inputs.push({ name: 'page deck narration', bytes: await bytesOf(audioUrlOf(deckData)) });
    for (const g of gen) {
      const id = (g.json.data as { taskId: string }).taskId;
      const t = (await mock.call('GET', `/v1/platform-voice/tasks/${id}`)).json.data as Record<string, unknown>;
      const url = JSON.stringify(t).match(/"(http[^"]+\.(mp3|wav))"/)![1];
      inputs.push({ name: `generated audio ${url.slice(-3)}`, bytes: await bytesOf(url) });
    }
    for (const input of inputs) {
      const { samples, errors } = await decode(input.bytes, input.args);
      expect({ name: input.name, errors }).toEqual({ name: input.name, errors: '' });
      expect(loudShare(loudWindows(samples), 0, (samples.length * 1000) / RATE), input.name).toBeGreaterThan(0.3);
    }
    figures.push(`decoded with 0 ffmpeg errors: ${inputs.map((i) => i.name).join(', ')}`);
  });
});
