#!/usr/bin/env bash
# Regenerates the lossy audio fixtures of mock/media/fixtures/ (mp3-loops.ts,
# aac-loops.ts, opus-loops.ts): for each pitch variant, one loop of
# mock/media/fixtures/audio-loop.ts encoded by ffmpeg. Needs ffmpeg with
# libmp3lame and libopus (Debian's ffmpeg has both); the mock itself never
# runs ffmpeg. Run from anywhere: scripts/make-media-fixtures.sh
#
# How: the loop is written three times over as raw 16-bit PCM, encoded, and
# the frames of the middle period kept, so the kept frames carry the codec's
# steady state on both ends and repeat seamlessly. The ffmpeg command of each
# fixture is written into its module.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v ffmpeg >/dev/null || { echo 'ffmpeg not found' >&2; exit 1; }

GEN=$(cat <<'EOF'
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loopPcm, loopSamples, loopVariants } from './mock/media/fixtures/audio-loop.ts';

const periods = 3;
const tmp = mkdtempSync(join(tmpdir(), 'media-fixtures-'));

type Split = (file: Uint8Array) => { head?: Uint8Array; frames: Uint8Array[] };

/** MPEG-2 Layer III frames (24 kHz mono, no bit reservoir: main_data_begin 0). */
const splitMp3: Split = (b) => {
  const kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
  const frames: Uint8Array[] = [];
  for (let at = 0; at < b.length; ) {
    if (b[at] !== 0xff || (b[at + 1] & 0xfe) !== 0xf2) throw new Error(`not an MPEG-2 Layer III frame at ${at}`);
    if (((b[at + 2] >> 2) & 3) !== 1 || (b[at + 3] >> 6) !== 3) throw new Error('not 24 kHz mono');
    const len = Math.floor((72 * kbps[b[at + 2] >> 4] * 1000) / 24000) + ((b[at + 2] >> 1) & 1);
    if (b[at + 4] !== 0) throw new Error('frame uses the bit reservoir');
    frames.push(b.slice(at, at + len));
    at += len;
  }
  return { frames };
};

/** ADTS frames (AAC-LC, 24 kHz, mono, one raw data block each). */
const splitAdts: Split = (b) => {
  const frames: Uint8Array[] = [];
  for (let at = 0; at < b.length; ) {
    if (b[at] !== 0xff || (b[at + 1] & 0xf6) !== 0xf0) throw new Error(`not an ADTS frame at ${at}`);
    if (((b[at + 2] >> 2) & 15) !== 6 || (b[at + 6] & 3) !== 0) throw new Error('not 24 kHz, one block per frame');
    const len = ((b[at + 3] & 3) << 11) | (b[at + 4] << 3) | (b[at + 5] >> 5);
    frames.push(b.slice(at, at + len));
    at += len;
  }
  return { frames };
};

/** Ogg Opus: OpusHead, then the audio packets (20 ms, one frame each) after OpusTags. */
const splitOggOpus: Split = (b) => {
  const packets: Uint8Array[] = [];
  let open: number[] = [];
  for (let at = 0; at < b.length; ) {
    if (String.fromCharCode(...b.subarray(at, at + 4)) !== 'OggS') throw new Error(`not an Ogg page at ${at}`);
    const n = b[at + 26];
    let body = at + 27 + n;
    for (let i = 0; i < n; i++) {
      const lace = b[at + 27 + i];
      for (let k = 0; k < lace; k++) open.push(b[body + k]);
      body += lace;
      if (lace < 255) {
        packets.push(Uint8Array.from(open));
        open = [];
      }
    }
    at = body;
  }
  const [head, tags, ...audio] = packets;
  if (String.fromCharCode(...head.subarray(0, 8)) !== 'OpusHead' || String.fromCharCode(...tags.subarray(0, 8)) !== 'OpusTags') throw new Error('not Ogg Opus');
  for (const p of audio) {
    const config = p[0] >> 3;
    const ms = config < 12 ? [10, 20, 40, 60][config & 3] : config < 16 ? [10, 20][config & 1] : [2.5, 5, 10, 20][config & 3];
    if (ms !== 20 || (p[0] & 3) !== 0) throw new Error('an Opus packet is not one 20 ms frame');
  }
  return { head, frames: audio };
};

const codecs = [
  { name: 'mp3', frameSamples: 576, ext: 'mp3', split: splitMp3, args: ['-c:a', 'libmp3lame', '-b:a', '32k', '-reservoir', '0', '-write_xing', '0', '-id3v2_version', '0', '-f', 'mp3'] },
  { name: 'aac', frameSamples: 1024, ext: 'aac', split: splitAdts, args: ['-c:a', 'aac', '-b:a', '32k', '-f', 'adts'] },
  { name: 'opus', frameSamples: 480, ext: 'ogg', split: splitOggOpus, args: ['-c:a', 'libopus', '-b:a', '24k', '-frame_duration', '20', '-f', 'ogg'] },
];

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const lines = (s: string, indent: string) => (s.match(/.{1,120}/g) ?? []).map((l) => `${indent}'${l}',`).join('\n');

for (const c of codecs) {
  const perLoop = loopSamples / c.frameSamples;
  const entries: string[] = [];
  for (let v = 0; v < loopVariants; v++) {
    const src = `loop3-v${v}.s16`;
    const out = `${c.name}-v${v}.${c.ext}`;
    const pcm = loopPcm(v);
    const three = new Int16Array(pcm.length * periods);
    for (let p = 0; p < periods; p++) three.set(pcm, p * pcm.length);
    writeFileSync(join(tmp, src), new Uint8Array(three.buffer)); // little-endian hosts only (x86, ARM)
    const args = ['-nostdin', '-v', 'error', '-f', 's16le', '-ar', '24000', '-ac', '1', '-i', src, '-fflags', '+bitexact', '-flags:a', '+bitexact', ...c.args, '-y', out];
    execFileSync('ffmpeg', args, { cwd: tmp, stdio: 'inherit' });
    const { head, frames } = c.split(new Uint8Array(readFileSync(join(tmp, out))));
    if (frames.length < perLoop * periods) throw new Error(`${out}: ${frames.length} frames, expected at least ${perLoop * periods}`);
    const kept = frames.slice(perLoop, 2 * perLoop);
    const how = [
      `// variant ${v}: frames ${perLoop}-${2 * perLoop - 1} (the middle period) of ${out}, made by`,
      `//   ffmpeg ${args.join(' ')}`,
      `// where ${src} is loopPcm(${v}) three times over, raw signed 16-bit little-endian.`,
    ].join('\n  ');
    if (c.name === 'opus') {
      const packed = new Uint8Array(kept.reduce((n, p) => n + 2 + p.length, 0));
      let at = 0;
      for (const p of kept) {
        packed[at] = p.length >> 8;
        packed[at + 1] = p.length & 0xff;
        packed.set(p, at + 2);
        at += 2 + p.length;
      }
      entries.push(`  ${how}\n  {\n    head: '${b64(head!)}',\n    packets: [\n${lines(b64(packed), '      ')}\n    ].join(''),\n  },`);
    } else {
      const joined = new Uint8Array(kept.reduce((n, f) => n + f.length, 0));
      let at = 0;
      for (const f of kept) {
        joined.set(f, at);
        at += f.length;
      }
      entries.push(`  ${how}\n  [\n${lines(b64(joined), '    ')}\n  ].join(''),`);
    }
  }
  const doc = {
    mp3: [
      'MP3 loops, one per pitch variant: 80 MPEG-2 Layer III frames (576 samples each, 24 kHz mono, 32 kbit/s CBR, 96 bytes),',
      'encoded without the bit reservoir, so every frame is self-contained and the frames can be copied in any order. Base64 of the',
      'frames back to back (itself a playable MP3 of 1.92 s).',
    ],
    aac: [
      'AAC loops, one per pitch variant: 45 ADTS frames (AAC-LC, 1024 samples each, 24 kHz mono, about 32 kbit/s).',
      'Base64 of the frames back to back (itself a playable .aac of 1.92 s).',
    ],
    opus: [
      'Opus loops, one per pitch variant: the OpusHead of the encoding (its pre-skip included) and 96 packets of one 20 ms frame',
      'each (24 kbit/s VBR, input 24 kHz mono). `packets` is base64 of the packets back to back, each preceded by its length in',
      'bytes (16-bit big-endian).',
    ],
  }[c.name]!;
  const type = c.name === 'opus' ? '{ head: string; packets: string }[]' : 'string[]';
  const body = [
    '/**',
    ...doc.map((l) => ` * ${l}`),
    ' *',
    ' * Generated by scripts/make-media-fixtures.sh from ./audio-loop.ts (do not edit by hand); the command of each',
    ' * variant is written above it.',
    ' */',
    `export const ${c.name}Loops: readonly ${type} = [`,
    entries.join('\n'),
    '];',
    '',
  ].join('\n');
  writeFileSync(`mock/media/fixtures/${c.name}-loops.ts`, body);
  console.log(`mock/media/fixtures/${c.name}-loops.ts: ${loopVariants} variants`);
}
rmSync(tmp, { recursive: true });
EOF
)
npx tsx --eval "$GEN"
