/**
 * Podcast episodes in two stages on the manual clock (document 2, "Podcast",
 * "Podcast episode (GET result)", "States and transitions", "Errors"): the script
 * first, then the audio of the original or an edited script; the audio call's
 * refusals, one render for concurrent calls, a short balance, a forced failure
 * and a stalled render with their refunds.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { podcastAudioCredits, podcastAudioSchedule, podcastModePlans, podcastRenderMs } from '../schemas/podcast.ts';
import { mp3Frames } from '../verify/decoders.ts';
import { type Body, podcastTextBody } from './factories.ts';
import { type TestMock, useMocks } from './helpers.ts';
import { expectError, FRAME_MS, lineMs, load, MINUTE, podcastCalls, scriptChars, textMs } from './podcast-helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});
const { oneShot, twoStage, get, audio, entriesOf, setCredits } = podcastCalls(() => m);

describe('the two-stage flow', () => {
  it('text-content -> text-success (processStatus success, script credits), then audio with an empty body -> audio-success', async () => {
    const id = await twoStage();
    const plan = podcastModePlans.quick;
    const pending = await get(id);
    expect(pending.processStatus).toBe('pending');
    expect(pending.contentStatus).toBeUndefined();
    await m.advance(textMs('quick'));
    const text = await get(id);
    expect(text).toMatchObject({ processStatus: 'success', contentStatus: 'text-success', failCode: 0, credits: plan.scriptCredits });
    expect(text.message).toContain(`/v1/podcast/episodes/${id}/audio`);
    expect(text.audioUrl).toBeUndefined();
    expect(text.cover).toBeDefined();
    expect(await entriesOf(id)).toEqual([
      ['reserve', -plan.scriptCredits],
      ['capture', 0],
    ]);

    const r = await audio(id);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toEqual({ episodeId: id, contentStatus: 'text-success' });
    const rendering = await get(id);
    expect(rendering).toMatchObject({ processStatus: 'pending', contentStatus: 'text-success', message: 'rendering the audio', credits: plan.scriptCredits });
    const audioMs = text.scripts.reduce((n: number, l: { content: string }) => n + lineMs(l.content), 0);
    await m.advance(podcastRenderMs(audioMs));
    const done = await get(id);
    const audioCredits = podcastAudioCredits(scriptChars(text.scripts));
    expect(done).toMatchObject({ processStatus: 'success', contentStatus: 'audio-success', credits: plan.scriptCredits + audioCredits, scripts: text.scripts });
    expect(done.audioUrl).toBeDefined();
    expect(await entriesOf(id)).toEqual([
      ['reserve', -plan.scriptCredits],
      ['capture', 0],
      ['reserve', -audioCredits],
      ['capture', 0],
    ]);
  });

  it('an edited script: only content changes; the episode shows and the audio speaks the edited lines', async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    const { scripts } = await get(id);
    const edited = scripts.map((l: { speakerId: string; content: string }, i: number) => ({
      speakerId: l.speakerId,
      content: i === 2 ? 'A much longer line that replaces the question with a statement about state and time and money.' : l.content,
    }));
    const r = await audio(id, { scripts: edited });
    expect(r.status, r.text).toBe(200);
    await m.advance(5 * MINUTE);
    const done = await get(id);
    expect(done.contentStatus).toBe('audio-success');
    expect(done.scripts[2]).toEqual({ ...scripts[2], content: edited[2].content });
    const mp3 = await load(done.audioUrl);
    const declared = edited.reduce((n: number, l: { content: string }) => n + lineMs(l.content), 0);
    expect(mp3Frames(mp3.bytes).length * FRAME_MS).toBe(declared);
    const srt = new TextDecoder().decode((await load(done.subtitlesUrl)).bytes);
    expect(srt).toContain('A much longer line');
    expect(done.credits).toBe(podcastModePlans.quick.scriptCredits + podcastAudioCredits(scriptChars(edited)));
  });

  it.each([
    ['a line left out', 'scripts', (s: Body[]) => s.slice(1)],
    ['a line added', 'scripts', (s: Body[]) => [...s, { speakerId: 'en_ava', content: 'One more.' }]],
    ['a speaker swapped', 'scripts[3].speakerId', (s: Body[]) => s.map((l, i) => (i === 3 ? { ...l, speakerId: 'en_ava' } : l))],
    ['another voice', 'scripts[0].speakerId', (s: Body[]) => s.map((l, i) => (i === 0 ? { ...l, speakerId: 'fr_louis' } : l))],
    ['an empty line', 'scripts', (s: Body[]) => s.map((l, i) => (i === 1 ? { ...l, content: '' } : l))],
    ['over 20,000 characters', 'scripts', (s: Body[]) => s.map((l, i) => (i === 1 ? { ...l, content: 'word '.repeat(4_001) } : l))],
  ])('an edit with %s -> 400 (37001) naming %s; nothing reserved', async (_what, field, edit) => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    const { scripts } = await get(id);
    const before = await entriesOf(id);
    const r = await audio(id, { scripts: edit(scripts.map((l: Body) => ({ speakerId: l.speakerId, content: l.content }))) });
    expectError(r, 'PODCAST_INVALID_PARAMETERS');
    expect(r.json.message).toContain(field);
    expect(await entriesOf(id)).toEqual(before);
    expect((await get(id)).contentStatus).toBe('text-success');
  });

  it('the audio call is refused (409, 37006) on a one-shot episode, before text-success, while rendering and after text-fail; allowed again after audio-success', async () => {
    const single = await oneShot();
    await m.advance(10 * MINUTE);
    expectError(await audio(single), 'PODCAST_AUDIO_NOT_ALLOWED');

    const id = await twoStage();
    const early = await audio(id);
    expectError(early, 'PODCAST_AUDIO_NOT_ALLOWED');
    expect(early.json.message).toContain('still being written');
    await m.advance(textMs('quick'));
    expect((await audio(id)).status).toBe(200);
    const again = await audio(id);
    expectError(again, 'PODCAST_AUDIO_NOT_ALLOWED');
    expect(again.json.message).toContain('rendering');
    await m.advance(5 * MINUTE);
    expect((await get(id)).contentStatus).toBe('audio-success');
    const rerender = await audio(id);
    expect(rerender.json.data).toEqual({ episodeId: id, contentStatus: 'audio-success' });
    expect((await get(id)).audioUrl, 'no audio while the new render runs').toBeUndefined();
    await m.advance(5 * MINUTE);
    expect((await entriesOf(id)).map(([t]) => t)).toEqual(['reserve', 'capture', 'reserve', 'capture', 'reserve', 'capture']);

    const failed = await twoStage(podcastTextBody(), { prefer: 'outcome=failed' });
    await m.advance(10 * MINUTE);
    expect((await get(failed)).contentStatus).toBe('text-fail');
    expectError(await audio(failed), 'PODCAST_AUDIO_NOT_ALLOWED');
  });

  it('concurrent audio calls: one render, one charge', async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    const answers = await Promise.all(Array.from({ length: 10 }, () => audio(id)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 200)) expectError(r, 'PODCAST_AUDIO_NOT_ALLOWED');
    expect((await entriesOf(id)).filter(([t]) => t === 'reserve')).toHaveLength(2);
  });

  it('a short balance refuses the audio (402, 37004) and takes nothing', async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    await setCredits(0);
    expectError(await audio(id), 'PODCAST_INSUFFICIENT_CREDITS');
    expect((await get(id)).contentStatus).toBe('text-success');
    expect(await entriesOf(id)).toHaveLength(2);
  });

  it('a forced audio failure: audio-fail, the audio refunded, the script credits kept; a retry renders', async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    expect((await audio(id, undefined, { prefer: 'outcome=failed' })).status).toBe(200);
    await m.advance(5 * MINUTE);
    const failed = await get(id);
    expect(failed).toMatchObject({ processStatus: 'fail', contentStatus: 'audio-fail', failCode: 37008, credits: podcastModePlans.quick.scriptCredits });
    expect(failed.scripts).toHaveLength(podcastModePlans.quick.lines);
    expect((await entriesOf(id)).map(([t]) => t)).toEqual(['reserve', 'capture', 'reserve', 'release']);
    expect((await audio(id)).status).toBe(200);
    await m.advance(5 * MINUTE);
    expect((await get(id)).contentStatus).toBe('audio-success');
  });

  it('a stalled audio render fails after 30 minutes (37011) with the audio refunded', async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    await audio(id, undefined, { prefer: 'outcome=stuck' });
    await m.advance(podcastAudioSchedule.timeoutMs);
    expect((await get(id)).processStatus).toBe('pending');
    await m.advance(1);
    expect(await get(id)).toMatchObject({ processStatus: 'fail', contentStatus: 'audio-fail', failCode: 37011 });
    expect((await entriesOf(id)).map(([t]) => t)).toEqual(['reserve', 'capture', 'reserve', 'release']);
  });
});
