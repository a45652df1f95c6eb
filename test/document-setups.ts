/**
 * The state some hand-written document cases need on their mock (test/document-rules-2.test.ts, -3.test.ts), made
 * through the API as a client would, with the case's key: a completed voice clone, a confirmed private voice, a podcast
 * episode whose script is written, a music track of the caller's own.
 */
import type { InProcessMock } from '../mock/index.ts';
import { cloneForm } from './factories.ts';

/** Calls the mock as `key` (a JSON body, or a form); the envelope's data. */
export async function call(mock: InProcessMock, key: string, method: string, path: string, body?: object): Promise<any> {
  const form = body instanceof FormData;
  const res = await mock.fetch(path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body && !form ? { 'content-type': 'application/json' } : {}) },
    body: form ? body : body && JSON.stringify(body),
  });
  const env = (await res.json()) as { code: number; message: string; data: any };
  if (env.code !== 0) throw new Error(`${method} ${path}: ${res.status} ${env.code} ${env.message}`);
  return env.data;
}
/** A completed voice-clone task of `key` (cloned, not confirmed): its taskId. */
export async function completedClone(mock: InProcessMock, key: string): Promise<string> {
  const { taskId } = await call(mock, key, 'POST', '/v1/voice-clone/clone', cloneForm());
  mock.advance(10 * 60_000);
  return taskId;
}
/** A confirmed private voice of `key`: its speakerId. */
export async function confirmedVoice(mock: InProcessMock, key: string): Promise<string> {
  const taskId = await completedClone(mock, key);
  return (await call(mock, key, 'POST', '/v1/voice-clone/confirm', { taskId, name: 'Narrator', gender: 'female' })).speakerId;
}
/** A two-stage podcast episode of `key` at text-success: its id and script. */
export async function writtenEpisode(mock: InProcessMock, key: string): Promise<{ episodeId: string; scripts: { content: string; speakerId: string }[] }> {
  const { episodeId } = await call(mock, key, 'POST', '/v1/podcast/episodes/text-content', {
    query: 'Why teams use mock servers',
    language: 'en',
    speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }],
  });
  mock.advance(10 * 60_000);
  const episode = await call(mock, key, 'GET', `/v1/podcast/episodes/${episodeId}`);
  if (episode.contentStatus !== 'text-success') throw new Error(`the episode to edit is ${episode.contentStatus}`);
  return { episodeId, scripts: episode.scripts.map((l: { content: string; speakerId: string }) => ({ content: l.content, speakerId: l.speakerId })) };
}
/** The setup of an edit of a written episode's script by `edit`. */
export const editScript = (edit: (lines: { content: string; speakerId: string }[]) => unknown[]) => async (mock: InProcessMock, key: string) => {
  const { episodeId, scripts } = await writtenEpisode(mock, key);
  return { params: { episodeId }, body: { scripts: edit(scripts) } };
};

/** The audioUrl of a track of a succeeded music task of `key` (a platform audio URL the caller owns). */
export async function ownTrackUrl(mock: InProcessMock, key: string): Promise<string> {
  const { taskId } = await call(mock, key, 'POST', '/v1/music/generate', { prompt: 'folk', lyrics: '[Verse]\nla la' });
  mock.advance(600_000);
  const task = await call(mock, key, 'GET', `/v1/music/tasks/${taskId}`);
  if (task.status !== 'success') throw new Error(`the music task to remix did not succeed: ${task.status}`);
  return task.tracks[0].audioUrl;
}
