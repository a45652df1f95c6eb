/**
 * A small H.264 bitstream writer for the mock's videos: Constrained Baseline
 * profile, CAVLC, 4:2:0, 8-bit, written directly (no encoder library: a real
 * encoder in WebAssembly costs seconds per minute of video, this costs
 * milliseconds). It draws one synthetic picture, a label and a progress bar:
 *
 * - the picture: a background colour with a diagonal band of a second colour
 *   (the PNG covers' band, on even columns), a black progress track one
 *   macroblock row high near the bottom edge and a white fill that grows with time;
 * - the label (mock/media/label.ts), when given: a black box on the macroblock
 *   grid with white text (luma only, chroma neutral, so any pixel pattern is
 *   exact in 4:2:0); its macroblocks without text are flat like the picture's,
 *   those with text I_PCM; its time line's slice is rewritten in every IDR and
 *   its changed cells re-coded (I_PCM) in P pictures;
 * - the bit writer and NAL units are in h264-bits.ts, sizes and levels in
 *   h264-params.ts;
 * - IDR pictures: a one-colour macroblock whose left or top neighbour (in the
 *   same slice) has its colour on the shared edge is Intra 16x16 without
 *   residual (horizontal or vertical prediction reproduces it exactly); every
 *   other macroblock (the band's edges, the first of a slice, the bar's fill
 *   front) is I_PCM. The decoded picture is exactly the painted one. Three
 *   slices: the rows above the bar and the rows below it are written once and
 *   reused by every IDR, the bar's row is written per IDR;
 * - P pictures: P_Skip everywhere (mb_skip_run; all motion vectors are zero)
 *   except the I_PCM macroblocks the bar's fill front crossed since the
 *   previous frame and the label's changed time-line cells.
 *
 * Deblocking is disabled in every slice; POC type 2 (output order = decode
 * order); one reference frame; frame_num counts the frames since the IDR, with
 * log2_max_frame_num large enough for the IDR interval. Output: AVCC samples
 * (4-byte big-endian NAL lengths) and the avcC AVCDecoderConfigurationRecord,
 * as MP4 needs. Colours are BT.601 limited-range YCbCr, which the SPS signals
 * (VUI). Section numbers refer to ITU-T H.264. Standard JavaScript only.
 */
import { concatBytes } from './bytes.ts';
import { BitWriter, nalUnit } from './h264-bits.ts';
import { checkH264Size, h264Level, rgbToYcbcr } from './h264-params.ts';
import type { Label, Rect } from './label.ts';
import type { Rgb } from './types.ts';

export { checkH264Size, H264_MAX_FPS, H264_MAX_MACROBLOCKS, H264_MAX_SIDE, h264Level, rgbToYcbcr } from './h264-params.ts';

/** profile_idc 66 (Baseline) with constraint_set0 and constraint_set1 (Constrained Baseline). */
const PROFILE_IDC = 66;
const CONSTRAINT_FLAGS = 0xc0;

// ---------------------------------------------------------------------------
// The writer
// ---------------------------------------------------------------------------

/** What an H264Writer draws and how often it starts a new GOP. */
export interface H264Options {
  /** Pixels; even, 16-4096, at most 36864 macroblocks. */
  width: number;
  height: number;
  /** Frames per second, integer 1-60 (only used to choose the level). */
  fps: number;
  /** Background and band colours. */
  bg: Rgb;
  fg: Rgb;
  /** Frames from one IDR to the next (>= 1). */
  idrInterval: number;
  /**
   * A label drawn over the picture (mock/media/label.ts): its box must lie on the 16-pixel grid, inside the
   * picture and above the progress bar's macroblock row (H264Writer.barTop), or RangeError. Its time line (if
   * any) is re-coded in every IDR picture and, where next() is told it changed, in P pictures.
   */
  label?: Label;
}

/** One coded picture. */
export interface H264Frame {
  /** AVCC sample: length-prefixed NAL units. */
  data: Uint8Array;
  /** An IDR picture (a sync sample). */
  key: boolean;
}

const NAL_SLICE = 1;
const NAL_IDR = 5;
const NAL_SPS = 7;
const NAL_PPS = 8;
const SLICE_P = 5;
const SLICE_I = 7;
const MB_I_PCM = 25;
const MB_P_I_PCM = 30;
const I16_VERTICAL = 0;
const I16_HORIZONTAL = 1;
/**
 * [bits, value] of an Intra 16x16 macroblock without residual, by luma mode (vertical, horizontal; the chroma
 * mode is the same direction) and nC < 2 or >= 8: mb_type ue(1 + mode) = I_16x16_<mode>_0_0,
 * intra_chroma_pred_mode ue(2 - mode) (2 vertical, 1 horizontal), mb_qp_delta se(0), then the coeff_token of
 * TotalCoeff 0 (Table 9-5: `1` for nC 0-1, `000011` for nC >= 8).
 */
const I16_CODES: readonly (readonly [number, number][])[] = [
  [
    [8, 0b010_011_1_1],
    [13, 0b010_011_1_000011],
  ],
  [
    [8, 0b011_010_1_1],
    [13, 0b011_010_1_000011],
  ],
];
/** Palette entries: background, band, progress track, progress fill. */
const BG = 0;
const FG = 1;
const TRACK = 2;
const FILL = 3;
/** Luma of the label's box (the track's black) and of its text (the fill's white). */
const TRACK_Y = 16;
const INK_Y = 235;

/**
 * Writes the frames of one video, in decode order: an IDR every `idrInterval` frames, P frames in
 * between, each drawing the progress bar at the fraction passed to next(). Throws RangeError for a
 * size or rate checkH264Size refuses, or an idrInterval below 1.
 */
export class H264Writer {
  /** AVCDecoderConfigurationRecord (ISO/IEC 14496-15) for the avcC box / WebCodecs description. */
  readonly avcC: Uint8Array;
  /** WebCodecs / RFC 6381 codec string, `avc1.42C0` + level in hex. */
  readonly codec: string;
  /** level_idc, e.g. 40 for level 4.0. */
  readonly level: number;
  readonly width: number;
  readonly height: number;

  private readonly mbW: number;
  private readonly mbH: number;
  /** YCbCr of the palette entries (background, band, track, fill), and each entry's first entry of the same colour. */
  private readonly palY: Uint8Array;
  private readonly palCb: Uint8Array;
  private readonly palCr: Uint8Array;
  private same: number[];
  /** Band columns [lo, hi) of each luma row pair (rows 2p and 2p+1), even, non-decreasing in p. */
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;
  /** The bar: one macroblock row, whole macroblock columns [barX0, barX0 + barW). */
  private readonly barMbRow: number;
  private readonly barX0: number;
  private readonly barW: number;
  private readonly log2MaxFrameNum: number;
  private readonly idrInterval: number;
  private readonly bits: BitWriter;
  /** I_PCM flags of the macroblocks of the slice being written (for nC). */
  private readonly pcm: Uint8Array;
  private readonly ids = new Uint8Array(16);
  /** The IDR slices that do not change, by first row and idr_pic_id. */
  private readonly slices = new Map<string, Uint8Array>();
  private frameIndex = 0;
  /** Frames since the last IDR picture (the next one's frame_num); the next frame is an IDR when 0. */
  private sinceIdr = 0;
  /** idr_pic_id of the last IDR picture, and whether the last frame written was one. */
  private lastIdrPicId = 0;
  private lastWasIdr = false;
  /** Bar fill, pixels from barX0 (even). */
  private fill = 0;
  /** The label, and its box in macroblocks: columns [lx0, lx1), rows [ly0, ly1); its time line's rows [ty0, ty1). */
  private readonly label?: Label;
  private readonly lx0: number = 0;
  private readonly lx1: number = 0;
  private readonly ly0: number = 0;
  private readonly ly1: number = 0;
  private readonly ty0: number = 0;
  private readonly ty1: number = 0;

  constructor(o: H264Options) {
    checkH264Size(o.width, o.height, o.fps);
    if (!Number.isInteger(o.idrInterval) || o.idrInterval < 1) throw new RangeError(`IDR interval ${o.idrInterval}: must be a positive integer of frames`);
    const { width: w, height: h } = o;
    this.width = w;
    this.height = h;
    this.level = h264Level(w, h, o.fps);
    this.codec = `avc1.${hex2(PROFILE_IDC)}${hex2(CONSTRAINT_FLAGS)}${hex2(this.level)}`;
    this.idrInterval = o.idrInterval;
    // frame_num counts frames since the IDR; it wraps (legally) only for intervals above 65536 frames.
    this.log2MaxFrameNum = Math.min(16, Math.max(4, Math.ceil(Math.log2(o.idrInterval))));
    this.mbW = Math.ceil(w / 16);
    this.mbH = Math.ceil(h / 16);
    const palette = [rgbToYcbcr(o.bg), rgbToYcbcr(o.fg), [TRACK_Y, 128, 128], [INK_Y, 128, 128]];
    this.palY = Uint8Array.from(palette, (c) => c[0]);
    this.palCb = Uint8Array.from(palette, (c) => c[1]);
    this.palCr = Uint8Array.from(palette, (c) => c[2]);
    this.same = palette.map((c) => palette.findIndex((d) => d[0] === c[0] && d[1] === c[1] && d[2] === c[2]));
    // The band is the PNG covers' (half-width min(w, h) / 8, centre x = y * w / h), on even columns so chroma
    // follows it exactly. Rows below the picture (cropped away) repeat its last row pair.
    const band = Math.max(1, Math.floor(Math.min(w, h) / 8));
    const pairs = this.mbH * 8;
    this.lo = new Int32Array(pairs);
    this.hi = new Int32Array(pairs);
    for (let p = 0; p < pairs; p++) {
      const centre = Math.floor((Math.min(2 * p, h - 2) * w) / h);
      this.lo[p] = Math.max(0, centre - band) & ~1;
      this.hi[p] = Math.min(w, (centre + band + 1) & ~1);
    }
    // The progress bar fills one macroblock row (the second-last whole one) between whole macroblock columns,
    // so IDRs code it as flat macroblocks and a P frame re-codes only the macroblocks its fill front crossed.
    const rows = Math.floor(h / 16);
    const cols = Math.floor(w / 16);
    this.barMbRow = Math.max(0, rows - 2);
    this.barX0 = cols >= 3 ? 16 : 0;
    this.barW = (cols >= 3 ? cols - 1 : cols) * 16 - this.barX0;
    this.bits = new BitWriter(1 << 16);
    this.pcm = new Uint8Array(this.mbW * this.mbH);
    const l = o.label;
    if (l) {
      const grid = [l.x, l.y, l.width, l.height].every((v) => v % 16 === 0);
      if (!grid || l.width <= 0 || l.height <= 0 || l.x + l.width > w || l.y + l.height > this.barMbRow * 16) {
        throw new RangeError(
          `label box ${l.width}x${l.height} at ${l.x},${l.y}: must be on the 16-pixel grid, inside the picture and above y = ${this.barMbRow * 16}`,
        );
      }
      this.label = l;
      [this.lx0, this.lx1, this.ly0, this.ly1] = [l.x / 16, (l.x + l.width) / 16, l.y / 16, (l.y + l.height) / 16];
      if (l.time) [this.ty0, this.ty1] = [l.time.y >> 4, (l.time.y + l.time.height) >> 4];
    }
    this.avcC = this.decoderConfig();
  }

  /** The top of the progress bar's macroblock row, pixels: a label must end above it. */
  static barTop(height: number): number {
    return Math.max(0, Math.floor(height / 16) - 2) * 16;
  }

  /** Frames written so far. */
  get frames(): number {
    return this.frameIndex;
  }

  /**
   * The next frame in decode order, showing the progress bar filled to `progress` (0-1, clamped; it
   * never shrinks). Frames 0, idrInterval, 2 x idrInterval, ... are IDR pictures. `changed`: the rectangles
   * of the label's time line redrawn since the previous frame (label.ts setTime), re-coded in a P picture.
   */
  next(progress: number, changed: readonly Rect[] = []): H264Frame {
    const p = Math.min(1, Math.max(0, Number.isFinite(progress) ? progress : 0));
    const prev = this.fill;
    this.fill = Math.max(prev, 2 * Math.round((this.barW * p) / 2));
    this.frameIndex++;
    const n = this.sinceIdr;
    this.sinceIdr = (n + 1) % this.idrInterval;
    if (n === 0) {
      // consecutive IDR pictures need different idr_pic_id; IDRs separated by P pictures may share one
      const idrPicId = this.lastWasIdr ? 1 - this.lastIdrPicId : 0;
      this.lastIdrPicId = idrPicId;
      this.lastWasIdr = true;
      return { data: this.idr(idrPicId), key: true };
    }
    this.lastWasIdr = false;
    return { data: this.pFrame(n, prev, this.fill, changed), key: false };
  }

  /**
   * Changes the background and band colours from the next frame on (a scene cut: a page of a deck), which is
   * then an IDR picture, so nothing refers across the cut. The progress bar keeps its fill.
   */
  recolour(bg: Rgb, fg: Rgb): void {
    const palette = [rgbToYcbcr(bg), rgbToYcbcr(fg), [TRACK_Y, 128, 128], [INK_Y, 128, 128]];
    palette.forEach((c, i) => {
      this.palY[i] = c[0];
      this.palCb[i] = c[1];
      this.palCr[i] = c[2];
    });
    this.same = palette.map((c) => palette.findIndex((d) => d[0] === c[0] && d[1] === c[1] && d[2] === c[2]));
    this.slices.clear();
    this.sinceIdr = 0;
  }

  // -------------------------------------------------------------------------
  // Picture: palette entry of a luma column in a row pair
  // -------------------------------------------------------------------------

  /** Palette entries of luma columns x0 to x0 + 15 of row pair p (columns right of the picture repeat its last) into `ids`. */
  private pairIds(p: number, x0: number): void {
    const { ids, width } = this;
    const inBar = p >> 3 === this.barMbRow;
    const bar0 = this.barX0;
    const bar1 = bar0 + this.barW;
    const front = bar0 + this.fill;
    const lo = this.lo[p];
    const hi = this.hi[p];
    for (let k = 0; k < 16; k++) {
      const c = x0 + k < width ? x0 + k : width - 1;
      ids[k] = inBar && c >= bar0 && c < bar1 ? (c < front ? FILL : TRACK) : c >= lo && c < hi ? FG : BG;
    }
  }

  /**
   * The colour (as its first palette entry) shared by luma columns [xa, xb) of row pairs [p0, p1) within one
   * macroblock row, or -1 when they differ (or might: the test is conservative, which only costs an I_PCM).
   */
  private rangeId(xa: number, xb: number, p0: number, p1: number): number {
    const w = this.width;
    if (xa >= w) xa = w - 1;
    if (xb > w) xb = w;
    if (xb <= xa) xb = xa + 1;
    const bar0 = this.barX0;
    const bar1 = this.barX0 + this.barW;
    if (p0 >> 3 === this.barMbRow && xa < bar1 && xb > bar0) {
      if (xa < bar0 || xb > bar1) return -1;
      const f = bar0 + this.fill;
      return xb <= f ? this.same[FILL] : xa >= f ? this.same[TRACK] : -1;
    }
    const l = this.label;
    if (l && p0 >> 3 >= this.ly0 && p0 >> 3 < this.ly1 && xa < l.x + l.width && xb > l.x) {
      if (xa < l.x || xb > l.x + l.width) return -1;
      const { ink, rowOf, width: lw } = l;
      for (let r = 2 * p0 - l.y; r < 2 * p1 - l.y; r++) {
        const at = rowOf[r] * lw - l.x;
        for (let c = xa; c < xb; c++) if (ink[at + c]) return -1;
      }
      return this.same[TRACK];
    }
    if (this.lo[p1 - 1] <= xa && xb <= this.hi[p0]) return this.same[FG];
    if (xb <= this.lo[p0] || xa >= this.hi[p1 - 1]) return this.same[BG];
    return -1;
  }

  // -------------------------------------------------------------------------
  // Parameter sets
  // -------------------------------------------------------------------------

  private sps(): Uint8Array {
    const b = this.bits;
    b.reset();
    b.u(8, PROFILE_IDC);
    b.u(8, CONSTRAINT_FLAGS);
    b.u(8, this.level);
    b.ue(0); // seq_parameter_set_id
    b.ue(this.log2MaxFrameNum - 4);
    b.ue(2); // pic_order_cnt_type: output order = decode order
    b.ue(1); // max_num_ref_frames
    b.u(1, 0); // gaps_in_frame_num_value_allowed_flag
    b.ue(this.mbW - 1);
    b.ue(this.mbH - 1);
    b.u(1, 1); // frame_mbs_only_flag
    b.u(1, 1); // direct_8x8_inference_flag
    const cropRight = (this.mbW * 16 - this.width) / 2;
    const cropBottom = (this.mbH * 16 - this.height) / 2;
    if (cropRight || cropBottom) {
      b.u(1, 1); // frame_cropping_flag, in 2-pixel units for 4:2:0 frames
      b.ue(0);
      b.ue(cropRight);
      b.ue(0);
      b.ue(cropBottom);
    } else b.u(1, 0);
    b.u(1, 1); // vui_parameters_present_flag
    b.u(1, 1); // aspect_ratio_info_present_flag
    b.u(8, 1); // square pixels
    b.u(1, 0); // overscan_info_present_flag
    b.u(1, 1); // video_signal_type_present_flag
    b.u(3, 5); // video_format: unspecified
    b.u(1, 0); // video_full_range_flag: limited range
    b.u(1, 1); // colour_description_present_flag
    b.u(8, 6); // colour_primaries: SMPTE 170M
    b.u(8, 6); // transfer_characteristics: SMPTE 170M
    b.u(8, 6); // matrix_coefficients: BT.601
    b.u(1, 0); // chroma_loc_info_present_flag
    b.u(1, 0); // timing_info_present_flag
    b.u(1, 0); // nal_hrd_parameters_present_flag
    b.u(1, 0); // vcl_hrd_parameters_present_flag
    b.u(1, 0); // pic_struct_present_flag
    b.u(1, 1); // bitstream_restriction_flag
    b.u(1, 1); // motion_vectors_over_pic_boundaries_flag
    b.ue(0); // max_bytes_per_pic_denom
    b.ue(0); // max_bits_per_mb_denom
    b.ue(15); // log2_max_mv_length_horizontal
    b.ue(15); // log2_max_mv_length_vertical
    b.ue(0); // max_num_reorder_frames
    b.ue(1); // max_dec_frame_buffering
    b.trailing();
    return nalUnit(3, NAL_SPS, b.bytes());
  }

  private pps(): Uint8Array {
    const b = this.bits;
    b.reset();
    b.ue(0); // pic_parameter_set_id
    b.ue(0); // seq_parameter_set_id
    b.u(1, 0); // entropy_coding_mode_flag: CAVLC
    b.u(1, 0); // bottom_field_pic_order_in_frame_present_flag
    b.ue(0); // num_slice_groups_minus1
    b.ue(0); // num_ref_idx_l0_default_active_minus1
    b.ue(0); // num_ref_idx_l1_default_active_minus1
    b.u(1, 0); // weighted_pred_flag
    b.u(2, 0); // weighted_bipred_idc
    b.se(0); // pic_init_qp_minus26
    b.se(0); // pic_init_qs_minus26
    b.se(0); // chroma_qp_index_offset
    b.u(1, 1); // deblocking_filter_control_present_flag
    b.u(1, 0); // constrained_intra_pred_flag
    b.u(1, 0); // redundant_pic_cnt_present_flag
    b.trailing();
    return nalUnit(3, NAL_PPS, b.bytes());
  }

  private decoderConfig(): Uint8Array {
    const sps = this.sps().subarray(4);
    const pps = this.pps().subarray(4);
    const out = new Uint8Array(11 + sps.length + pps.length);
    out.set([1, PROFILE_IDC, CONSTRAINT_FLAGS, this.level, 0xff, 0xe1, sps.length >> 8, sps.length & 0xff]);
    out.set(sps, 8);
    out.set([1, pps.length >> 8, pps.length & 0xff], 8 + sps.length);
    out.set(pps, 11 + sps.length);
    return out;
  }

  // -------------------------------------------------------------------------
  // Slices
  // -------------------------------------------------------------------------

  /**
   * An IDR access unit: three slices, the rows above the bar, the bar's row and the rows below it; the first and
   * the last do not change with the bar and are written once.
   */
  private idr(idrPicId: number): Uint8Array {
    // Slices: the rows that change (the bar's row, the label's time line) written per IDR, the runs of rows
    // between them written once. An AVCC sample of several length-prefixed NAL units.
    const changing: [number, number][] = [[this.barMbRow, this.barMbRow + 1]];
    if (this.ty1 > this.ty0) changing.unshift([this.ty0, this.ty1]);
    const out: Uint8Array[] = [];
    let r = 0;
    for (const [a, b] of changing) {
      if (a > r) out.push(this.cachedSlice(r, a, idrPicId));
      out.push(this.intraSlice(a, b, idrPicId));
      r = b;
    }
    if (r < this.mbH) out.push(this.cachedSlice(r, this.mbH, idrPicId));
    return concatBytes(out);
  }

  private cachedSlice(r0: number, r1: number, idrPicId: number): Uint8Array {
    const key = `${r0} ${idrPicId}`;
    let slice = this.slices.get(key);
    if (!slice) this.slices.set(key, (slice = this.intraSlice(r0, r1, idrPicId)));
    return slice;
  }

  /** An I slice (of an IDR picture) covering macroblock rows [r0, r1). */
  private intraSlice(r0: number, r1: number, idrPicId: number): Uint8Array {
    const b = this.bits;
    b.reset();
    b.ue(r0 * this.mbW); // first_mb_in_slice
    b.ue(SLICE_I);
    b.ue(0); // pic_parameter_set_id
    b.u(this.log2MaxFrameNum, 0); // frame_num
    b.ue(idrPicId);
    b.u(1, 0); // no_output_of_prior_pics_flag
    b.u(1, 0); // long_term_reference_flag
    b.se(0); // slice_qp_delta
    b.ue(1); // disable_deblocking_filter_idc
    // A one-colour macroblock is Intra 16x16 without residual when its left neighbour's last column (horizontal
    // prediction, luma and chroma) or its top neighbour's last row (vertical) is its colour: the prediction is then
    // exact. Any other macroblock is I_PCM. Neighbours in another slice are unavailable (6.4.8).
    const { mbW, pcm } = this;
    for (let my = r0; my < r1; my++) {
      b.reserve(mbW * 400);
      const p0 = my * 8;
      let leftId = -1;
      for (let mx = 0, addr = my * mbW; mx < mbW; mx++, addr++) {
        const x0 = mx * 16;
        const id = this.rangeId(x0, x0 + 16, p0, p0 + 8);
        let mode = -1;
        if (id >= 0) {
          if (mx > 0 && (leftId === id || this.rangeId(x0 - 1, x0, p0, p0 + 8) === id)) mode = I16_HORIZONTAL;
          else if (my > r0 && this.rangeId(x0, x0 + 16, p0 - 1, p0) === id) mode = I16_VERTICAL;
        }
        leftId = id;
        if (mode < 0) {
          pcm[addr] = 1;
          b.ue(MB_I_PCM);
          this.writePcm(mx, my);
          continue;
        }
        pcm[addr] = 0;
        // coeff_token of the (empty) Intra16x16DCLevel block depends on nC: the neighbours' coefficient counts, 16 for I_PCM (9.2.1).
        const nA = mx > 0 ? pcm[addr - 1] * 16 : -1;
        const nB = my > r0 ? pcm[addr - mbW] * 16 : -1;
        const nC = nA >= 0 && nB >= 0 ? (nA + nB + 1) >> 1 : nA >= 0 ? nA : nB >= 0 ? nB : 0;
        const code = I16_CODES[mode][nC >= 8 ? 1 : 0];
        b.u(code[0], code[1]);
      }
    }
    b.trailing();
    return nalUnit(3, NAL_IDR, b.bytes());
  }

  /** pcm_alignment_zero_bits and the macroblock's 256 luma, 64 Cb and 64 Cr samples. */
  private writePcm(mx: number, my: number): void {
    const b = this.bits;
    b.align();
    b.reserve(384);
    const out = b.buf;
    const o = b.pos;
    const { ids, palY, palCb, palCr } = this;
    const l = this.label;
    if (l && mx >= this.lx0 && mx < this.lx1 && my >= this.ly0 && my < this.ly1) {
      // The label's box: black and white luma from its ink, neutral chroma.
      const y0 = TRACK_Y;
      const span = INK_Y - TRACK_Y;
      for (let r = 0; r < 16; r++) {
        const at = l.rowOf[my * 16 - l.y + r] * l.width + mx * 16 - l.x;
        for (let k = 0, o2 = o + 16 * r; k < 16; k++) out[o2 + k] = y0 + span * l.ink[at + k];
      }
      out.fill(128, o + 256, o + 384);
      b.pos = o + 384;
      return;
    }
    for (let j = 0; j < 8; j++) {
      this.pairIds(my * 8 + j, mx * 16);
      for (let k = 0, l = o + 32 * j; k < 16; k++, l++) out[l] = out[l + 16] = palY[ids[k]];
      for (let k = 0, c = o + 256 + 8 * j; k < 8; k++, c++) {
        out[c] = palCb[ids[2 * k]];
        out[c + 64] = palCr[ids[2 * k]];
      }
    }
    b.pos = o + 384;
  }

  /** A P picture (frame_num n within its GOP): P_Skip, and I_PCM where the bar grew from `from` to `to` pixels. */
  private pFrame(n: number, from: number, to: number, changed: readonly Rect[]): Uint8Array {
    const b = this.bits;
    b.reset();
    b.ue(0); // first_mb_in_slice
    b.ue(SLICE_P);
    b.ue(0); // pic_parameter_set_id
    b.u(this.log2MaxFrameNum, n & ((1 << this.log2MaxFrameNum) - 1)); // frame_num
    b.u(1, 0); // num_ref_idx_active_override_flag
    b.u(1, 0); // ref_pic_list_modification_flag_l0
    b.u(1, 0); // adaptive_ref_pic_marking_mode_flag
    b.se(0); // slice_qp_delta
    b.ue(1); // disable_deblocking_filter_idc
    const total = this.mbW * this.mbH;
    // The macroblocks to re-code, in address order: the label's changed cells, then the bar's front.
    const addrs = new Set<number>();
    for (const c of changed) {
      for (let my = c.y >> 4; my <= (c.y + c.height - 1) >> 4; my++)
        for (let mx = c.x >> 4; mx <= (c.x + c.width - 1) >> 4; mx++) if (mx < this.mbW && my < this.mbH) addrs.add(my * this.mbW + mx);
    }
    if (to > from) {
      for (let mx = (this.barX0 + from) >> 4; mx <= (this.barX0 + to - 1) >> 4; mx++) addrs.add(this.barMbRow * this.mbW + mx);
    }
    let next = 0;
    for (const addr of [...addrs].sort((x, y) => x - y)) {
      b.reserve(400);
      b.ue(addr - next); // mb_skip_run
      b.ue(MB_P_I_PCM);
      this.writePcm(addr % this.mbW, Math.floor(addr / this.mbW));
      next = addr + 1;
    }
    if (next < total) b.ue(total - next); // the remaining macroblocks are skipped
    b.trailing();
    return nalUnit(2, NAL_SLICE, b.bytes());
  }
}

function hex2(n: number): string {
  return n.toString(16).toUpperCase().padStart(2, '0');
}
