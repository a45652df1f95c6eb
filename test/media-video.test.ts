/**
 * The rendered media of video tasks are real files that match what the API
 * declares (document 1, "Video task": videoUrl, coverUrl, duration,
 * resolution, ratio): the MP4 parses (mp4box) with the declared duration and
 * pixel size, its H.264 parameter sets say the same size, its samples are the
 * NAL units they should be, and the PNG covers decode (pngjs) at the exact
 * size showing the colours asked for.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sample } from 'mp4box';
import { PNG } from 'pngjs';
import { describe, expect, it, vi } from 'vitest';
import { encodedAudio } from '../mock/media/audio.ts';
import { H264Writer, h264Level, rgbToYcbcr } from '../mock/media/h264.ts';
import { colourFor, encodePng, toBase64 } from '../mock/media/png.ts';
import type { Rgb } from '../mock/media/types.ts';
import { renderVideo, VIDEO_FPS, VIDEO_IDR_SECONDS, videoFrameCount } from '../mock/media/video.ts';
import { parseMp4, type ParsedMp4 } from '../verify/decoders.ts';

const colours = { bg: [30, 60, 200] as Rgb, fg: [250, 200, 40] as Rgb };

type Parsed = ParsedMp4;

/** An RBSP bit reader (emulation prevention bytes removed first). */
class Bits {
  private pos = 0;
  private readonly data: Uint8Array;
  constructor(nal: Uint8Array) {
    const out: number[] = [];
    for (let i = 0, zeros = 0; i < nal.length; i++) {
      if (zeros >= 2 && nal[i] === 3) {
        zeros = 0;
        continue;
      }
      out.push(nal[i]);
      zeros = nal[i] === 0 ? zeros + 1 : 0;
    }
    this.data = Uint8Array.from(out);
  }
  u(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++, this.pos++) v = v * 2 + ((this.data[this.pos >> 3] >> (7 - (this.pos & 7))) & 1);
    return v;
  }
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) zeros++;
    return 2 ** zeros - 1 + this.u(zeros);
  }
  se(): number {
    const k = this.ue();
    return k % 2 ? (k + 1) / 2 : 0 - k / 2;
  }
  align(): void {
    this.pos = (this.pos + 7) & ~7;
  }
  /** The next byte (the reader must be byte-aligned). */
  byte(): number {
    const v = this.data[this.pos >> 3] ?? -1;
    this.pos += 8;
    return v;
  }
}

interface Sps {
  profile: number;
  constraints: number;
  level: number;
  log2MaxFrameNum: number;
  pocType: number;
  refFrames: number;
  width: number;
  height: number;
}

/** The SPS fields of a Baseline-profile SPS NAL unit (header byte included), with the cropped size. */
function parseSps(nal: Uint8Array): Sps {
  expect(nal[0] & 0x1f).toBe(7);
  const b = new Bits(nal.subarray(1));
  const profile = b.u(8);
  const constraints = b.u(8);
  const level = b.u(8);
  b.ue(); // seq_parameter_set_id
  expect(profile).toBe(66); // no chroma_format_idc etc. for Baseline
  const log2MaxFrameNum = b.ue() + 4;
  const pocType = b.ue();
  if (pocType === 0) b.ue();
  expect(pocType).not.toBe(1);
  const refFrames = b.ue();
  b.u(1); // gaps_in_frame_num_value_allowed_flag
  const mbW = b.ue() + 1;
  const mapH = b.ue() + 1;
  const frameMbsOnly = b.u(1);
  if (!frameMbsOnly) b.u(1);
  b.u(1); // direct_8x8_inference_flag
  let [left, right, top, bottom] = [0, 0, 0, 0];
  if (b.u(1)) [left, right, top, bottom] = [b.ue(), b.ue(), b.ue(), b.ue()];
  const cropY = 2 * (2 - frameMbsOnly);
  return {
    profile,
    constraints,
    level,
    log2MaxFrameNum,
    pocType,
    refFrames,
    width: mbW * 16 - 2 * (left + right),
    height: mapH * 16 * (2 - frameMbsOnly) - cropY * (top + bottom),
  };
}

/** The AVCDecoderConfigurationRecord of the file's avcC box: its SPS and PPS NAL units. */
function avcC(bytes: Uint8Array): { profile: number; compat: number; level: number; lengthSize: number; sps: Uint8Array[]; pps: Uint8Array[] } {
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf('avcC');
  expect(at).toBeGreaterThan(4);
  const r = bytes.subarray(at + 4);
  expect(r[0]).toBe(1); // configurationVersion
  let o = 6;
  const sets = (count: number) => {
    const out: Uint8Array[] = [];
    for (let i = 0; i < count; i++) {
      const len = (r[o] << 8) | r[o + 1];
      out.push(r.subarray(o + 2, o + 2 + len));
      o += 2 + len;
    }
    return out;
  };
  const sps = sets(r[5] & 0x1f);
  const pps = sets(r[o++]);
  return { profile: r[1], compat: r[2], level: r[3], lengthSize: (r[4] & 3) + 1, sps, pps };
}

/** The NAL units of an AVCC sample (4-byte lengths), checking that they fill the sample exactly. */
function nalUnits(sample: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  const dv = new DataView(sample.buffer, sample.byteOffset, sample.byteLength);
  let o = 0;
  while (o < sample.length) {
    const len = dv.getUint32(o);
    expect(len).toBeGreaterThan(0);
    out.push(sample.subarray(o + 4, o + 4 + len));
    o += 4 + len;
  }
  expect(o).toBe(sample.length);
  return out;
}

interface SliceHeader {
  firstMb: number;
  sliceType: number;
  frameNum: number;
  idrPicId?: number;
  disableDeblocking: number;
  /** The bits after the header. */
  rest: Bits;
}

/** The slice header of a slice NAL unit (Baseline, POC type 2, one PPS with deblocking control present). */
function sliceHeader(nal: Uint8Array, sps: Sps): SliceHeader {
  const type = nal[0] & 0x1f;
  const refIdc = nal[0] >> 5;
  const b = new Bits(nal.subarray(1));
  const firstMb = b.ue();
  const sliceType = b.ue();
  expect(b.ue()).toBe(0); // pic_parameter_set_id
  const frameNum = b.u(sps.log2MaxFrameNum);
  const idrPicId = type === 5 ? b.ue() : undefined;
  expect(sps.pocType).toBe(2); // no pic_order_cnt_lsb
  if (sliceType % 5 === 0) {
    expect(b.u(1)).toBe(0); // num_ref_idx_active_override_flag
    expect(b.u(1)).toBe(0); // ref_pic_list_modification_flag_l0
  }
  if (refIdc) {
    // IDR: no_output_of_prior_pics_flag, long_term_reference_flag
    if (type === 5) b.u(2);
    else expect(b.u(1)).toBe(0); // adaptive_ref_pic_marking_mode_flag
  }
  expect(b.se()).toBe(0); // slice_qp_delta
  const disableDeblocking = b.ue();
  return { firstMb, sliceType, frameNum, idrPicId, disableDeblocking, rest: b };
}

const sampleBytes = (p: Parsed, s: Sample) => p.bytes.subarray(s.offset, s.offset + s.size);

describe('renderVideo', () => {
  const cases: [number, number, number][] = [
    [640, 360, 1000],
    [854, 480, 5000],
    [1280, 720, 10000],
    [720, 1280, 5000],
    [720, 720, 1000],
    [1680, 720, 10000],
    [1920, 1080, 61000],
    [1920, 1080, 1000],
    [1366, 768, 5000],
    [2560, 1440, 10000],
    [3360, 1440, 5000],
    [720, 900, 1000],
  ];

  it.each(cases)('%ix%i, %i ms: an H.264 MP4 of that size and duration', async (width, height, durationMs) => {
    const p = await parseMp4(await renderVideo({ width, height, durationMs, colours }));
    const { movie } = p;
    expect(movie.brands).toContain('isom');
    expect(movie.isFragmented).toBe(false);
    expect(movie.isProgressive).toBe(true); // moov before mdat
    expect(movie.duration / movie.timescale).toBeCloseTo(durationMs / 1000, 3);
    expect(movie.tracks).toHaveLength(1);
    const [track] = movie.videoTracks;
    expect(track.duration / track.timescale).toBeCloseTo(durationMs / 1000, 3);
    expect(track.samples_duration / track.timescale).toBeCloseTo(durationMs / 1000, 3);
    expect([track.track_width, track.track_height]).toEqual([width, height]);
    expect([track.video?.width, track.video?.height]).toEqual([width, height]);
    expect(track.codec.toLowerCase()).toBe(`avc1.42c0${h264Level(width, height, VIDEO_FPS).toString(16).padStart(2, '0')}`);

    const frames = Math.ceil((durationMs * VIDEO_FPS) / 1000);
    expect(track.nb_samples).toBe(frames);
    const samples = p.samples.get(track.id)!;
    expect(samples).toHaveLength(frames);
    const gop = VIDEO_IDR_SECONDS * VIDEO_FPS;
    expect(samples.filter((s) => s.is_sync).map((s) => s.number)).toEqual(samples.map((s) => s.number).filter((n) => n % gop === 0));
    expect(samples[0].is_sync).toBe(true);
    expect(samples[0].cts).toBe(0);
    // Frames at a steady 1 / fps, presented in decode order.
    for (const s of samples.slice(0, -1)) expect(s.duration / s.timescale).toBeCloseTo(1 / VIDEO_FPS, 6);
    for (const s of samples) expect(s.cts).toBe(s.dts);

    const config = avcC(p.bytes);
    expect([config.profile, config.compat, config.lengthSize]).toEqual([66, 0xc0, 4]);
    expect(config.sps).toHaveLength(1);
    expect(config.pps).toHaveLength(1);
    const sps = parseSps(config.sps[0]);
    expect([sps.width, sps.height]).toEqual([width, height]);
    expect(sps.constraints & 0x40).toBe(0x40); // constraint_set1: Constrained Baseline
    expect(sps.level).toBe(config.level);
    expect(sps.refFrames).toBe(1);
    expect(2 ** sps.log2MaxFrameNum).toBeGreaterThanOrEqual(gop);
    expect(config.pps[0][0] & 0x1f).toBe(8);

    // The NAL units of the first GOP and the last frame: IDR slices (5) in sync samples, one non-IDR slice (1)
    // in the others, frame_num counting from the IDR, deblocking off.
    const mbs = Math.ceil(width / 16) * Math.ceil(height / 16);
    for (const s of [...samples.slice(0, gop + 2), samples[samples.length - 1]]) {
      const nals = nalUnits(sampleBytes(p, s));
      const types = nals.map((n) => n[0] & 0x1f);
      if (s.is_sync) expect(new Set(types)).toEqual(new Set([5]));
      else expect(types).toEqual([1]);
      const headers = nals.map((n) => sliceHeader(n, sps));
      expect(headers[0].firstMb).toBe(0);
      for (const h of headers) {
        expect(h.frameNum).toBe(s.number % gop);
        expect(h.disableDeblocking).toBe(1);
        expect(h.sliceType).toBe(s.is_sync ? 7 : 5);
      }
      // Slices start on increasing macroblocks inside the picture.
      const starts = headers.map((h) => h.firstMb);
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);
      expect(starts[starts.length - 1]).toBeLessThan(mbs);
      // A P frame is skipped macroblocks and the I_PCM ones (384 bytes each) the bar's front crossed.
      if (!s.is_sync) expect(s.size).toBeLessThan(400 * (Math.ceil(width / frames / 16) + 2));
    }
  });

  it('the first macroblock of an IDR is I_PCM with the band colour (YCbCr BT.601)', async () => {
    const p = await parseMp4(await renderVideo({ width: 640, height: 360, durationMs: 1000, colours }));
    const [track] = p.movie.videoTracks;
    const sps = parseSps(avcC(p.bytes).sps[0]);
    const first = nalUnits(sampleBytes(p, p.samples.get(track.id)![0]))[0];
    const h = sliceHeader(first, sps);
    expect(h.idrPicId).toBe(0);
    const b = h.rest;
    expect(b.ue()).toBe(25); // mb_type I_PCM
    b.align();
    const luma = Array.from({ length: 256 }, () => b.byte());
    const cb = Array.from({ length: 64 }, () => b.byte());
    const cr = Array.from({ length: 64 }, () => b.byte());
    const [y, u, v] = rgbToYcbcr(colours.fg);
    // The band starts at the top-left corner: its first columns are the band colour.
    expect(luma[0]).toBe(y);
    expect(cb[0]).toBe(u);
    expect(cr[0]).toBe(v);
    // The band is 2 x 360 / 8 = 90 pixels wide at the top: the whole first macroblock row is band.
    expect(new Set(luma.slice(0, 16))).toEqual(new Set([y]));
  });

  it('the progress bar makes later P frames differ from earlier ones, and the last frame is whole', async () => {
    const p = await parseMp4(await renderVideo({ width: 1280, height: 720, durationMs: 5000, colours }));
    const [track] = p.movie.videoTracks;
    const samples = p.samples.get(track.id)!;
    const pFrames = samples.filter((s) => !s.is_sync);
    // Every P frame re-codes the macroblocks the bar's front crossed: at least one I_PCM macroblock (384 bytes).
    for (const s of pFrames) expect(s.size).toBeGreaterThan(384);
    const distinct = new Set(pFrames.map((s) => Buffer.from(sampleBytes(p, s)).toString('base64')));
    expect(distinct.size).toBeGreaterThan(pFrames.length / 2);
  });

  it('a frame rate other than the default and a duration that is not a whole number of frames', async () => {
    const p = await parseMp4(await renderVideo({ width: 854, height: 480, durationMs: 2450, fps: 12, colours }));
    const [track] = p.movie.videoTracks;
    expect(track.nb_samples).toBe(videoFrameCount(2450, 12));
    expect(track.nb_samples).toBe(30);
    expect(track.duration / track.timescale).toBeCloseTo(2.45, 3);
    const samples = p.samples.get(track.id)!;
    expect(samples.filter((s) => s.is_sync).map((s) => s.number)).toEqual([0, 24]);
    const last = samples[samples.length - 1];
    expect(last.duration / last.timescale).toBeCloseTo(2.45 - 29 / 12, 3);
  });

  it('with audio: an AAC track of the same duration next to the video', async () => {
    const durationMs = 10000;
    const audio = await encodedAudio('aac', durationMs, 3);
    const p = await parseMp4(await renderVideo({ width: 1280, height: 720, durationMs, colours, audio }));
    const { movie } = p;
    expect(movie.tracks).toHaveLength(2);
    expect(movie.videoTracks).toHaveLength(1);
    expect(movie.audioTracks).toHaveLength(1);
    const [a] = movie.audioTracks;
    expect(a.codec).toMatch(/^mp4a\.40\./);
    expect(a.audio?.sample_rate).toBe(audio.sampleRate);
    expect(a.audio?.channel_count).toBe(audio.numberOfChannels);
    expect(a.nb_samples).toBe(audio.packets.filter((k) => k.timestamp < durationMs / 1000).length);
    // Within one AAC frame of the video, never past it; the movie lasts exactly the video.
    const frame = audio.packets[0].duration;
    expect(Math.abs(a.duration / a.timescale - durationMs / 1000)).toBeLessThanOrEqual(frame);
    expect(a.duration / a.timescale).toBeLessThanOrEqual(durationMs / 1000 + 1e-6);
    expect(movie.duration / movie.timescale).toBeCloseTo(durationMs / 1000, 3);
    // The packets go in unchanged.
    const samples = p.samples.get(a.id)!;
    expect(sampleBytes(p, samples[5])).toEqual(audio.packets[5].data);
    // Interleaved for progressive playback: the sound of second 5 is stored near the picture of second 5.
    const v = p.samples.get(movie.videoTracks[0].id)!;
    const at5 = samples.find((s) => s.cts / s.timescale >= 5)!;
    expect(Math.abs(at5.offset - v[5 * VIDEO_FPS].offset)).toBeLessThan(200_000);
  });

  it('a 60 s 1080p video with sound stays a few MB', async () => {
    const audio = await encodedAudio('aac', 60000, 1);
    const bytes = await renderVideo({ width: 1920, height: 1080, durationMs: 60000, colours, audio });
    // All-I_PCM key frames would be 3 MB each (90 MB a minute); the flat macroblocks are a few bits.
    expect(bytes.length).toBeLessThan(6_000_000);
    expect(bytes.length).toBeGreaterThan(500_000);
  });

  it('is deterministic: the same spec gives the same bytes, other colours or durations other bytes', async () => {
    const spec = { width: 854, height: 480, durationMs: 3000, colours };
    const a = await renderVideo(spec);
    const b = await renderVideo(spec);
    expect(Buffer.compare(a, b)).toBe(0);
    const c = await renderVideo({ ...spec, colours: { bg: colours.fg, fg: colours.bg } });
    expect(Buffer.compare(a, c)).not.toBe(0);
    expect(c.length).toBe(a.length); // same structure, other samples
    const d = await renderVideo({ ...spec, durationMs: 4000 });
    expect(Buffer.compare(a, d)).not.toBe(0);
  });

  it('does not depend on the wall clock: the muxer writes the time of day into mvhd, tkhd and mdhd, and it is cleared', async () => {
    const spec = { width: 320, height: 180, durationMs: 1000, colours };
    const now = vi.spyOn(Date, 'now');
    try {
      now.mockReturnValue(Date.UTC(2026, 0, 1));
      const a = await renderVideo(spec);
      now.mockReturnValue(Date.UTC(2031, 5, 9, 13, 7, 42));
      const b = await renderVideo(spec);
      expect(Buffer.compare(a, b)).toBe(0);
    } finally {
      now.mockRestore();
    }
  });

  it.each([
    ['odd width', { width: 641, height: 360, durationMs: 1000 }],
    ['odd height', { width: 640, height: 361, durationMs: 1000 }],
    ['width below 16', { width: 14, height: 360, durationMs: 1000 }],
    ['height below 16', { width: 640, height: 8, durationMs: 1000 }],
    ['width above 4096', { width: 4098, height: 360, durationMs: 1000 }],
    ['more than 4096x2304 of macroblocks', { width: 4096, height: 2320, durationMs: 1000 }],
    ['zero duration', { width: 640, height: 360, durationMs: 0 }],
    ['negative duration', { width: 640, height: 360, durationMs: -1000 }],
    ['NaN duration', { width: 640, height: 360, durationMs: NaN }],
    ['fractional width', { width: 640.5, height: 360, durationMs: 1000 }],
    ['fps 0', { width: 640, height: 360, durationMs: 1000, fps: 0 }],
    ['fps 61', { width: 640, height: 360, durationMs: 1000, fps: 61 }],
  ])('throws RangeError for %s', async (_, spec) => {
    await expect(renderVideo({ ...spec, colours })).rejects.toThrow(RangeError);
  });

  it('accepts the largest sizes: 4096x2304 and 2304x4096', async () => {
    for (const [width, height] of [
      [4096, 2304],
      [2304, 4096],
    ]) {
      const p = await parseMp4(await renderVideo({ width, height, durationMs: 1000, colours }));
      const sps = parseSps(avcC(p.bytes).sps[0]);
      expect([sps.width, sps.height]).toEqual([width, height]);
      expect(sps.level).toBe(51);
    }
  });
});

describe('H264Writer', () => {
  it('starts an IDR every idrInterval frames and chooses the level from size and rate', () => {
    const w = new H264Writer({ width: 320, height: 180, fps: 10, bg: colours.bg, fg: colours.fg, idrInterval: 4 });
    const keys = Array.from({ length: 10 }, (_, i) => w.next(i / 10).key);
    expect(keys).toEqual([true, false, false, false, true, false, false, false, true, false]);
    expect(w.frames).toBe(10);
    expect(h264Level(320, 180, 10)).toBe(11); // 240 macroblocks, 2400 per second
    expect(h264Level(1280, 720, 10)).toBe(31);
    expect(h264Level(1920, 1080, 10)).toBe(40);
    expect(h264Level(1920, 1080, 60)).toBe(42);
    expect(h264Level(3360, 1440, 10)).toBe(50);
  });

  it('gives consecutive IDR pictures different idr_pic_id', () => {
    const w = new H264Writer({ width: 64, height: 64, fps: 10, bg: colours.bg, fg: colours.fg, idrInterval: 1 });
    const sps = parseSps(avcCRecordSps(w.avcC));
    const ids = [0, 1, 2].map((i) => new Set(nalUnits(w.next(i / 3).data).map((n) => sliceHeader(n, sps).idrPicId)));
    expect(ids).toEqual([new Set([0]), new Set([1]), new Set([0])]);
  });

  it('converts colours to BT.601 limited range', () => {
    expect(rgbToYcbcr([0, 0, 0])).toEqual([16, 128, 128]);
    expect(rgbToYcbcr([255, 255, 255])).toEqual([235, 128, 128]);
    expect(rgbToYcbcr([255, 0, 0])).toEqual([81, 90, 240]);
  });
});

/** The SPS NAL unit of a bare AVCDecoderConfigurationRecord. */
function avcCRecordSps(record: Uint8Array): Uint8Array {
  const len = (record[6] << 8) | record[7];
  return record.subarray(8, 8 + len);
}

describe('encodePng', () => {
  const rgba = (png: PNG, x: number, y: number) => Array.from(png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3));

  it.each([
    [16, 16],
    [640, 360],
    [854, 480],
    [1280, 720],
    [720, 1280],
    [3360, 1440],
    [1000, 7],
    [3, 1000],
    [4096, 4096],
  ])('%ix%i decodes at that size with both colours', (width, height) => {
    const bg: Rgb = [12, 34, 56];
    const fg: Rgb = [200, 150, 100];
    const bytes = encodePng(width, height, bg, fg);
    const png = PNG.sync.read(Buffer.from(bytes));
    expect([png.width, png.height]).toEqual([width, height]);
    const seen = new Set<string>();
    for (let i = 0; i < png.data.length; i += 4 * 97) seen.add(`${png.data[i]},${png.data[i + 1]},${png.data[i + 2]}`);
    for (let y = 0; y < height; y += Math.max(1, height >> 4)) seen.add(rgba(png, width - 1, y).join());
    expect(seen).toEqual(new Set([bg.join(), fg.join()]));
    // The band's centre runs from the top-left towards the bottom-right corner.
    expect(rgba(png, 0, 0)).toEqual(fg);
    expect(rgba(png, Math.floor(((height - 1) * width) / height), height - 1)).toEqual(fg);
    if (width >= 8 && height >= 8) {
      expect(rgba(png, width - 1, 0)).toEqual(bg);
      expect(rgba(png, 0, height - 1)).toEqual(bg);
    }
  });

  it('writes the band exactly: every row is background, then band columns, then background', () => {
    const [width, height] = [301, 203];
    const png = PNG.sync.read(Buffer.from(encodePng(width, height, [0, 0, 0], [255, 255, 255])));
    const band = Math.floor(Math.min(width, height) / 8);
    for (let y = 0; y < height; y++) {
      const centre = Math.floor((y * width) / height);
      for (let x = 0; x < width; x++) {
        const inBand = x >= centre - band && x < centre + band;
        if ((png.data[(y * width + x) * 4] === 255) !== inBand) throw new Error(`pixel ${x},${y}`);
      }
    }
  });

  it('is deterministic, compact and refuses sizes outside 1-16384', () => {
    const a = encodePng(4096, 4096, [1, 2, 3], [4, 5, 6]);
    expect(Buffer.compare(a, encodePng(4096, 4096, [1, 2, 3], [4, 5, 6]))).toBe(0);
    expect(a.length).toBeLessThan(100_000);
    expect(() => encodePng(0, 10, [0, 0, 0], [1, 1, 1])).toThrow(RangeError);
    expect(() => encodePng(16385, 10, [0, 0, 0], [1, 1, 1])).toThrow(RangeError);
    expect(() => encodePng(10.5, 10, [0, 0, 0], [1, 1, 1])).toThrow(RangeError);
  });

  it('colourFor is stable per (seed, id, purpose) and toBase64 is standard base64', () => {
    expect(colourFor(7, 'vt_1', 'video-bg')).toEqual(colourFor(7, 'vt_1', 'video-bg'));
    expect(colourFor(7, 'vt_1', 'video-bg')).not.toEqual(colourFor(7, 'vt_1', 'video-fg'));
    const bytes = encodePng(50, 30, [1, 2, 3], [4, 5, 6]);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });
});

describe('scene cuts (the pages of a deck)', () => {
  const colours = (r: number) => ({ bg: [r, 40, 90] as Rgb, fg: [250, 250, 250] as Rgb });
  const spec = {
    width: 320,
    height: 180,
    durationMs: 3_000,
    colours: colours(200),
    // a cut right after the first IDR (frame 1), one between frames (1,050 ms: frame 11 at 1,100 ms), one at an IDR position (2,000 ms)
    scenes: [
      { atMs: 100, colours: colours(20) },
      { atMs: 1_050, colours: colours(120) },
      { atMs: 2_000, colours: colours(60) },
    ],
  };

  it('each cut is a sync sample at the first frame starting at or after its time; the rest of the schedule keeps its IDR interval', async () => {
    const bytes = await renderVideo(spec);
    const { movie, samples } = await parseMp4(bytes);
    const video = samples.get(movie.videoTracks[0].id)!;
    const sync = video.filter((s) => s.is_sync).map((s) => Math.round((s.cts / s.timescale) * 1000));
    expect(sync).toEqual([0, 100, 1100, 2000]);
    expect(video).toHaveLength(videoFrameCount(spec.durationMs));
    expect(Buffer.from(await renderVideo(spec)).equals(Buffer.from(bytes)), 'deterministic').toBe(true);
  });

  it.skipIf(spawnSync('ffmpeg', ['-version']).status !== 0)(
    '(with ffmpeg, where installed) decodes without an error and shows each scene in its colours',
    async () => {
      const file = join(tmpdir(), `scenes-${process.pid}.mp4`);
      writeFileSync(file, await renderVideo(spec));
      try {
        expect(spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']).stderr.toString()).toBe('');
        for (const [at, colour] of [
          [0, colours(200)],
          [0.5, colours(20)],
          [1.5, colours(120)],
          [2.5, colours(60)],
        ] as const) {
          const out = spawnSync('ffmpeg', ['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
            maxBuffer: 1 << 24,
          });
          const px = [...out.stdout.subarray(319 * 3, 320 * 3)]; // top-right: the background
          colour.bg.forEach((c, i) => expect(Math.abs(px[i] - c), `${at} s channel ${i}`).toBeLessThanOrEqual(3));
        }
      } finally {
        rmSync(file, { force: true });
      }
    },
  );
});
