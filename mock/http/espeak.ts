/**
 * The eSpeak NG speech engine (a `SpeechSynth`, mock/media/speech.ts) for the
 * Node transports: each piece of text is spoken by the `espeak-ng` program,
 * run as a separate process (GPL-3.0, called, never linked or shipped: see
 * docs/guides/media.md, "Speech: words or tones"), its WAV read from standard output.
 *
 * Bounds: at most `concurrency` (2) processes at once, the others queued;
 * each killed after `timeoutMs` (10 s) and then rejected, so the caller keeps
 * tones for that piece; renders kept in an LRU cache of `cacheBytes` (32 MiB)
 * keyed by text and voice, so the handler that measures a line and the media
 * render that encodes it run the program once. eSpeak NG's output is
 * deterministic: the same text, voice and version give the same samples.
 */
import { spawn, spawnSync } from 'node:child_process';
import { LRUCache } from 'lru-cache';
import { voiceKey, type SpeechPcm, type SpeechSynth, type SpeechVoice } from '../media/speech.ts';

/** Options of the eSpeak NG engine. */
export interface EspeakOptions {
  /** The program (default `espeak-ng` on the PATH). */
  command?: string;
  /** Processes at once (default 2). */
  concurrency?: number;
  /** Real ms a render may take before it is killed and rejected (default 10 000). */
  timeoutMs?: number;
  /** Bytes of samples kept (default 32 MiB). */
  cacheBytes?: number;
}

/** The version line of `command` (`eSpeak NG text-to-speech: 1.51 ...`), or undefined when it cannot be run. */
export function espeakVersion(command = 'espeak-ng'): string | undefined {
  try {
    const r = spawnSync(command, ['--version'], { encoding: 'utf8', timeout: 5_000 });
    if (r.status !== 0 || typeof r.stdout !== 'string') return undefined;
    return /text-to-speech:\s*([^\s]+)/.exec(r.stdout)?.[1] ?? r.stdout.trim().split('\n')[0];
  } catch {
    return undefined;
  }
}

/** The samples of a WAV file (16-bit PCM; eSpeak NG's stdout WAV gives no usable sizes, so the data runs to the end). */
export function wavSamples(wav: Uint8Array): SpeechPcm {
  const dv = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  if (wav.length < 44 || dv.getUint32(0) !== 0x52494646 || dv.getUint32(8) !== 0x57415645) throw new Error('espeak-ng: not a WAV file');
  let at = 12;
  let sampleRate = 0;
  while (at + 8 <= wav.length) {
    const id = dv.getUint32(at);
    const size = dv.getUint32(at + 4, true);
    if (id === 0x666d7420) sampleRate = dv.getUint32(at + 12, true); // "fmt "
    if (id === 0x64617461) {
      // "data": to the end of the file (the size field of a piped WAV is a placeholder)
      const start = at + 8;
      const n = Math.floor((wav.length - start) / 2);
      const samples = new Int16Array(n);
      for (let i = 0; i < n; i++) samples[i] = dv.getInt16(start + 2 * i, true);
      return { samples, sampleRate };
    }
    at += 8 + size + (size & 1);
  }
  throw new Error('espeak-ng: WAV without a data chunk');
}

/** An eSpeak NG `SpeechSynth`; `version` (from `espeakVersion`) is part of its id. */
export function createEspeakSynth(version: string, opts: EspeakOptions = {}): SpeechSynth {
  const command = opts.command ?? 'espeak-ng';
  const concurrency = opts.concurrency ?? 2;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const inflight = new Map<string, Promise<SpeechPcm>>(); // one process per text and voice, shared by concurrent callers
  const sizes = new LRUCache<string, SpeechPcm>({
    maxSize: opts.cacheBytes ?? 32 * 1024 * 1024,
    sizeCalculation: (v) => Math.max(1, v.samples.byteLength),
  });
  let running = 0;
  const waiting: (() => void)[] = [];

  async function slot(): Promise<void> {
    if (running < concurrency) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }

  function run(text: string, voice: SpeechVoice): Promise<SpeechPcm> {
    return new Promise((resolve, reject) => {
      const args = ['-v', `${voice.language}+${voice.variant}`, '-p', String(voice.pitch), '-s', String(voice.wordsPerMinute), '--stdout', '--stdin'];
      const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      const chunks: Buffer[] = [];
      let err = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      child.stdout.on('data', (c: Buffer) => chunks.push(c));
      child.stderr.on('data', (c: Buffer) => {
        if (err.length < 500) err += c.toString();
      });
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code !== 0) return reject(new Error(`exit ${code}${err ? `: ${err.trim()}` : ''}`));
        try {
          resolve(wavSamples(new Uint8Array(Buffer.concat(chunks))));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
      child.stdin.on('error', () => {}); // a process that died early: its close reports it
      child.stdin.end(text);
    });
  }

  return {
    id: `espeak-ng ${version}`,
    render(text, voice) {
      const key = `${voiceKey(voice)}\u0000${text}`;
      const done = sizes.get(key);
      if (done) return Promise.resolve(done);
      let p = inflight.get(key);
      if (!p) {
        p = (async () => {
          await slot();
          try {
            const pcm = await run(text, voice);
            sizes.set(key, pcm);
            return pcm;
          } finally {
            release();
            inflight.delete(key);
          }
        })();
        inflight.set(key, p);
      }
      return p;
    },
  };
}

/** How the CLI picks speech: `espeak` (eSpeak NG, an error when it is missing), `tones` (never words), `auto` (eSpeak NG when installed). */
export const speechModes = ['auto', 'espeak', 'tones'] as const;

/**
 * The speech engine for `mode` and the start-up line that says which
 * (`speech: words (espeak-ng 1.51)` or `speech: tones (...)`). Throws for
 * `espeak` when the program cannot be run.
 */
export function chooseSpeech(mode: (typeof speechModes)[number], opts: EspeakOptions = {}): { synth?: SpeechSynth; line: string } {
  if (mode === 'tones') return { line: 'speech:   tones (--speech tones)' };
  const version = espeakVersion(opts.command);
  if (version === undefined) {
    if (mode === 'espeak') throw new Error(`--speech espeak: ${opts.command ?? 'espeak-ng'} cannot be run (apt-get install espeak-ng, brew install espeak-ng)`);
    return { line: 'speech:   tones (espeak-ng not found; install it for speech in words: apt-get install espeak-ng, brew install espeak-ng)' };
  }
  return { synth: createEspeakSynth(version, opts), line: `speech:   words, espeak-ng ${version} (--speech tones for tones)` };
}
