/**
 * The media of a successful task (docs/guides/verify.md, "What it checks" 3):
 * each URL loads (no redirect followed, the body within its Content-Length
 * plus a margin) with a declared Content-Type, and the file is checked whole
 * (verify/containers.ts: the MP4 box tree and sample table against the bytes,
 * MP3 frames to the last byte, PNG chunks and CRCs to IEND) and decoded to
 * the task's duration (within 0.5 s) and pixel size.
 */
import type { LifecycleMedia } from '../schemas/registry-types.ts';
import { clip } from './answers.ts';
import { checkMp3Whole, checkMp4Whole, checkPngWhole } from './containers.ts';
import { decodeAudio, parseMp4, pngSize } from './decoders.ts';
import type { SpecOperation } from './document.ts';
import type { Run } from './run.ts';

/** The values at a dotted path of `obj` (`tracks[].audioUrl`: one per array item). */
export function fieldAt(obj: unknown, path: string): unknown[] {
  let cur: unknown[] = [obj];
  for (const part of path.split('.')) {
    const many = part.endsWith('[]');
    const name = many ? part.slice(0, -2) : part;
    cur = cur.flatMap((c) => {
      const v = (c as Record<string, unknown> | null)?.[name];
      return many ? (Array.isArray(v) ? (v as unknown[]) : []) : [v];
    });
  }
  return cur;
}

/** Loads, checks whole and decodes the media at `m.urlField` of `task`. */
export async function checkMedia(run: Run, op: SpecOperation, task: Record<string, unknown>, m: LifecycleMedia, label: string): Promise<void> {
  const rule = `${label}: media ${m.urlField}`;
  const urls = fieldAt(task, m.urlField).filter((u): u is string => typeof u === 'string');
  if (!urls.length)
    return run.record(op, `${rule}: loads`, {
      violation: 'media present',
      evidence: { request: '', answer: clip(JSON.stringify(task)), detail: `no URL at ${m.urlField}` },
    });
  const durations = m.durationField ? fieldAt(task, m.durationField) : [];
  for (const [i, url] of urls.entries()) {
    const r = urls.length > 1 ? `${rule}[${i}]` : rule;
    const a = await run.exchange('get', url, { absolute: true, key: null });
    const ct = a.contentType.split(';')[0].trim();
    if (a.status !== 200 || a.error) {
      run.record(
        op,
        `${r}: loads`,
        run.fail(a, 'media loads', a.error ?? `the media URL answered HTTP ${a.status}`, `media loads: HTTP ${a.status}`),
        a.durationMs,
      );
      continue;
    }
    run.record(op, `${r}: loads`, null, a.durationMs);
    if (!m.contentTypes.includes(ct)) {
      run.record(
        op,
        `${r}: content type`,
        run.fail(a, 'media content type', `Content-Type ${ct} is not ${m.contentTypes.join(' or ')}`, `media content type: ${ct}`),
      );
      continue;
    }
    run.record(op, `${r}: content type`, null);
    const bytes = a.bytes ?? new Uint8Array();
    const declared = Number(a.headers.get('content-length'));
    if (Number.isFinite(declared) && a.headers.has('content-length') && declared !== bytes.length)
      run.record(op, `${r}: length`, run.fail(a, 'media length', `Content-Length ${declared}, ${bytes.length} bytes received`));
    else run.record(op, `${r}: length`, null);
    const whole = ct === 'video/mp4' ? checkMp4Whole : ct === 'image/png' ? checkPngWhole : ct === 'audio/mpeg' ? checkMp3Whole : undefined;
    if (whole) {
      const problem = await whole(bytes).then(
        () => undefined,
        (e: Error) => e.message,
      );
      run.record(op, `${r}: whole file`, problem ? run.fail(a, 'media whole', `the ${ct} file is not whole: ${problem}`, `media whole: ${ct}`) : null);
      if (problem) continue;
    }
    try {
      let durationS: number | undefined;
      let size: { width: number; height: number } | undefined;
      if (ct === 'video/mp4') {
        const { movie } = await parseMp4(bytes);
        durationS = movie.duration / movie.timescale;
        const v = movie.videoTracks[0];
        if (v) size = { width: v.video?.width ?? v.track_width, height: v.video?.height ?? v.track_height };
      } else if (ct === 'image/png') size = pngSize(bytes);
      else if (ct === 'audio/mpeg') durationS = (await decodeAudio(bytes, 'mp3')).durationMs / 1000;
      run.record(op, `${r}: decodes`, null);
      const want = durations.length === urls.length ? durations[i] : durations[0];
      if (typeof want === 'number' && durationS !== undefined) {
        const off = Math.abs(durationS - want) > 0.5;
        run.record(
          op,
          `${r}: duration`,
          off ? run.fail(a, 'media duration', `decoded ${durationS.toFixed(3)} s, the task says ${m.durationField} ${want}`, 'media duration') : null,
        );
      }
      const res = m.resolutionField ? task[m.resolutionField] : undefined;
      const short = typeof res === 'string' ? m.shortSides?.[res] : undefined;
      if (short !== undefined && size) {
        const got = Math.min(size.width, size.height);
        run.record(
          op,
          `${r}: pixel size`,
          got !== short
            ? run.fail(
                a,
                'media pixel size',
                `decoded ${size.width}x${size.height}, ${m.resolutionField} ${String(res)} means a short side of ${short}`,
                'media pixel size',
              )
            : null,
        );
      }
    } catch (e) {
      run.record(op, `${r}: decodes`, run.fail(a, 'media decodes', `does not decode as ${ct}: ${(e as Error).message}`, `media decodes: ${ct}`));
    }
  }
}
