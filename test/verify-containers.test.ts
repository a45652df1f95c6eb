/**
 * The verifier's whole-file checks (verify/containers.ts): a PNG made by an
 * independent encoder (pngjs) and the mock's MP4 and MP3 pass whole; cut
 * short, padded, or with one byte changed inside a chunk, they are refused
 * with the byte offset of the first inconsistency.
 */
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type InProcessMock } from '../mock/index.ts';
import { checkMp3Whole, checkMp4Whole, checkPngWhole, crc32 } from '../verify/containers.ts';

const KEY = 'mg_containers_secret1';
let mock: InProcessMock;
let base: string;
beforeAll(async () => {
  mock = createMock({ seed: 1 });
  base = await mock.listen();
});
afterAll(() => mock.close());

/** Creates a task, moves the clock to its end, and loads the media at `field` of the finished task. */
async function media(create: string, body: unknown, read: string, field: string): Promise<Uint8Array> {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const created = (await (await fetch(base + create, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { data: { taskId: string } };
  await fetch(`${base}/__mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: 3_600_000 }) });
  const task = (await (await fetch(base + read + created.data.taskId, { headers })).json()) as { data: Record<string, string> };
  return new Uint8Array(await (await fetch(task.data[field])).arrayBuffer());
}

describe('whole-file checks', () => {
  it('CRC-32 of "123456789" is the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('PNG: an encoder-made file passes; cut, padded or changed it does not', async () => {
    const png = new PNG({ width: 4, height: 3 });
    png.data.fill(200);
    const bytes = new Uint8Array(PNG.sync.write(png));
    await expect(checkPngWhole(bytes)).resolves.toBeUndefined();
    await expect(checkPngWhole(bytes.subarray(0, bytes.length - 6))).rejects.toThrow(/IEND|remain/);
    await expect(checkPngWhole(new Uint8Array([...bytes, 0]))).rejects.toThrow(/1 bytes after IEND/);
    const changed = bytes.slice();
    changed[40] ^= 0xff; // inside IDAT
    await expect(checkPngWhole(changed)).rejects.toThrow(/CRC/);
  });

  it("MP4 and MP3: the mock's files pass; cut short or padded they do not", async () => {
    const mp4 = await media('/v1/video-generation/generate', { content: [{ type: 'text', text: 'a fox' }] }, '/v1/video-generation/tasks/', 'videoUrl');
    await expect(checkMp4Whole(mp4)).resolves.toBeUndefined();
    await expect(checkMp4Whole(mp4.subarray(0, mp4.length >> 1))).rejects.toThrow(/says \d+ bytes|outside every mdat/);
    await expect(checkMp4Whole(new Uint8Array([...mp4, 1, 2, 3]))).rejects.toThrow(/stray bytes/);
    const mp3 = await media(
      '/v1/platform-voice/generate',
      { text: 'Welcome to the show.', voices: [{ type: 'speaker', id: 'en_ava' }], durationHint: 5 },
      '/v1/platform-voice/tasks/',
      'audioUrl',
    );
    await expect(checkMp3Whole(mp3)).resolves.toBeUndefined();
    await expect(checkMp3Whole(mp3.subarray(0, mp3.length - 100))).rejects.toThrow(/cut short/);
    await expect(checkMp3Whole(new Uint8Array([...mp3, 0, 0, 0, 0]))).rejects.toThrow(/no MP3 Layer III frame header/);
  });
});
