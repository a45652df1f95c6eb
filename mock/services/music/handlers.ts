/**
 * The music handlers, one named function per operation: the seven creates,
 * the task read and the list. Standard JavaScript only.
 */
import { modelsOf, musicBParameterNames, musicDurations, musicFileTypes, musicFlatCredits, type MusicTaskParams } from '../../../schemas/music.ts';
import { defaultModelOf, extendCredits, extendPricedModel, modelCredits, resolveProvider } from '../../../schemas/music-providers.ts';
import { mediaDurationMs } from '../../media/reference-audio.ts';
import type { Handler } from '../context.ts';
import { kit, seededMs, titleFor, tagsFor, planTracks, providerSongIdOf, present, start, refreshed } from './record.ts';
import { checkUpload, urlSource, songSource } from './sources.ts';

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

/** Params with the optional text fields that were sent (blank ones left out). */
function texts<K extends string>(body: Partial<Record<K, unknown>>, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) {
    const v = body[k];
    if (typeof v === 'string' && v.trim() !== '') out[k] = v;
  }
  return out;
}

/** The musicB parameters actually sent (unknown keys were dropped by the schema). */
function keptParams(p: Record<string, unknown> | undefined): MusicTaskParams['providerParams'] | undefined {
  if (!p) return undefined;
  const kept = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length ? kept : undefined;
}

export const generate: Handler<'generateMusic'> = ({ body }, ctx) => {
  const provider = resolveProvider(body.provider);
  const model = body.model ?? defaultModelOf[provider];
  const seed = ctx.engine.seed;
  const providerParams = provider === 'musicB' ? keptParams(body.providerParams) : undefined;
  const params: MusicTaskParams = {
    model,
    // style is the fallback for a missing prompt (document 3, "POST /v1/music/generate"): the echo shows what was used
    prompt: body.prompt ?? body.style ?? '',
    instrumental: body.instrumental,
    ...texts(body, ['lyrics', 'style', 'title'] as const),
    ...(provider === 'musicB' ? { customMode: body.customMode ?? true } : {}),
    ...(body.vocalId !== undefined ? { vocalId: body.vocalId } : {}),
    ...(providerParams ? { providerParams } : {}),
  };
  // musicB reads the prompt as lyrics in custom mode
  const lyrics = params.lyrics ?? (provider === 'musicB' && params.customMode ? body.prompt : undefined);
  return start(ctx, {
    provider,
    taskType: 'GENERATE',
    params,
    price: modelCredits(provider, model)!,
    tracks: (id) =>
      planTracks(seed, id, provider, titleFor(seed, id, { ...params, lyrics }), tagsFor(seed, id, params.style), (i) =>
        seededMs(seed, musicDurations.song, id, 'song', i),
      ),
  });
};

export const cover: Handler<'coverMusic'> = ({ body }, ctx) => {
  const source = urlSource(ctx, 'uploadUrl', body.uploadUrl);
  const seed = ctx.engine.seed;
  const providerParams = keptParams(body.providerParams);
  const params: MusicTaskParams = {
    model: body.model,
    prompt: body.prompt ?? '',
    instrumental: body.instrumental,
    ...texts(body, ['style', 'title'] as const),
    customMode: body.customMode,
    uploadUrl: body.uploadUrl,
    ...(providerParams ? { providerParams } : {}),
  };
  return start(ctx, {
    provider: 'musicB',
    taskType: 'COVER',
    params,
    price: modelCredits('musicB', body.model)!,
    tracks: (id) =>
      planTracks(
        seed,
        id,
        'musicB',
        titleFor(seed, id, { title: params.title, lyrics: body.customMode ? params.prompt : undefined }),
        tagsFor(seed, id, params.style, ['cover']),
        (i) => source.durationMs ?? seededMs(seed, musicDurations.song, id, 'cover', i),
      ),
  });
};

export const instrumental: Handler<'generateInstrumental'> = async ({ body }, ctx0) => {
  const ref = body.referenceAudio ? await checkUpload(ctx0, 'referenceAudio', body.referenceAudio, musicFileTypes.referenceAudio, true) : undefined;
  const ctx = refreshed(ctx0);
  const seed = ctx.engine.seed;
  const params: MusicTaskParams = {
    model: body.model,
    prompt: body.prompt ?? '',
    instrumental: true,
    ...(ref ? { referenceAudio: ref.echo } : {}),
  };
  return start(ctx, {
    provider: 'musicA',
    taskType: 'INSTRUMENTAL',
    params,
    price: modelCredits('musicA', body.model)!,
    tracks: (id) =>
      planTracks(seed, id, 'musicA', titleFor(seed, id, { prompt: params.prompt }), tagsFor(seed, id, undefined, ['instrumental']), (i) =>
        seededMs(seed, musicDurations.song, id, 'instrumental', i),
      ),
  });
};

export const soundtrack: Handler<'generateSoundtrack'> = async ({ body }, ctx0) => {
  const image = body.image ? await checkUpload(ctx0, 'image', body.image, musicFileTypes.image, false) : undefined;
  const video = body.video ? await checkUpload(ctx0, 'video', body.video, musicFileTypes.video, false) : undefined;
  // a soundtrack lasts as long as its video, when the video can be read
  const videoMs = body.video ? await mediaDurationMs(body.video.bytes) : undefined;
  const ctx = refreshed(ctx0);
  const seed = ctx.engine.seed;
  const params: MusicTaskParams = {
    model: body.model,
    prompt: body.prompt ?? '',
    instrumental: true,
    ...(image ? { image: image.echo } : {}),
    ...(video ? { video: video.echo } : {}),
  };
  return start(ctx, {
    provider: 'musicA',
    taskType: 'SOUNDTRACK',
    params,
    price: musicFlatCredits.soundtrack,
    tracks: (id) =>
      planTracks(
        seed,
        id,
        'musicA',
        titleFor(seed, id, { prompt: params.prompt }),
        tagsFor(seed, id, undefined, ['soundtrack']),
        (i) => videoMs ?? seededMs(seed, musicDurations.soundtrack, id, 'soundtrack', i),
      ),
  });
};

export const track: Handler<'generateTrack'> = async ({ body }, ctx0) => {
  const upload = body.audio ? await checkUpload(ctx0, 'audio', body.audio, musicFileTypes.trackAudio, true) : undefined;
  const ctx = refreshed(ctx0);
  const seed = ctx.engine.seed;
  const song = body.providerSongId !== undefined ? songSource(ctx, body.providerSongId, true) : undefined;
  const sourceMs = upload?.durationMs ?? song!.r.tracks[song!.index].durationMs;
  const sourceS = sourceMs / 1000;
  const startS = body.generateStart ?? 0;
  const endS = body.generateEnd ?? sourceS;
  if (startS >= sourceS) throw ctx.fail('MUSIC_INVALID_PARAMETERS', `generateStart: ${startS} s is not within the source (${sourceS} s long)`);
  if (endS > sourceS) throw ctx.fail('MUSIC_INVALID_PARAMETERS', `generateEnd: ${endS} s is past the end of the source (${sourceS} s long)`);
  if (endS <= startS) throw ctx.fail('MUSIC_INVALID_PARAMETERS', `generateEnd: ${endS} s must be after generateStart (${startS} s)`);
  const params: MusicTaskParams = {
    model: defaultModelOf.musicA,
    prompt: body.prompt,
    instrumental: body.generateType !== 'Vocals',
    generateType: body.generateType,
    ...texts(body, ['lyrics'] as const),
    ...(body.vocalGender !== undefined ? { vocalGender: body.vocalGender } : {}),
    ...(body.generateStart !== undefined ? { generateStart: body.generateStart } : {}),
    ...(body.generateEnd !== undefined ? { generateEnd: body.generateEnd } : {}),
    ...(upload ? { audio: upload.echo } : {}),
    ...(body.providerSongId !== undefined ? { providerSongId: body.providerSongId } : {}),
  };
  const sourceTitle = song ? song.r.tracks[song.index].title : undefined;
  return start(ctx, {
    provider: 'musicA',
    taskType: 'TRACK',
    params,
    price: musicFlatCredits.track,
    tracks: (id) =>
      planTracks(
        seed,
        id,
        'musicA',
        `${sourceTitle ?? titleFor(seed, id, { prompt: body.prompt })} (${body.generateType})`,
        tagsFor(seed, id, undefined, [body.generateType.toLowerCase()]),
        () => (endS - startS) * 1000,
      ),
  });
};

export const remix: Handler<'remixMusic'> = async ({ body }, ctx0) => {
  const upload = body.audio ? await checkUpload(ctx0, 'audio', body.audio, musicFileTypes.remixAudio, true) : undefined;
  const ctx = refreshed(ctx0);
  const seed = ctx.engine.seed;
  let sourceMs = upload?.durationMs;
  // document 3, "POST /v1/music/remix": audioUrl is internal platform audio (the caller's or public), never another host's
  if (body.audioUrl !== undefined) sourceMs = urlSource(ctx, 'audioUrl', body.audioUrl, { platformOnly: true }).durationMs;
  if (body.providerSongId !== undefined) {
    const song = songSource(ctx, body.providerSongId, true);
    sourceMs = song.r.tracks[song.index].durationMs;
  }
  const params: MusicTaskParams = {
    model: defaultModelOf.musicA,
    prompt: body.prompt,
    instrumental: false,
    lyrics: body.lyrics,
    ...(upload ? { audio: upload.echo } : {}),
    ...(body.audioUrl !== undefined ? { audioUrl: body.audioUrl } : {}),
    ...(body.providerSongId !== undefined ? { providerSongId: body.providerSongId } : {}),
  };
  return start(ctx, {
    provider: 'musicA',
    taskType: 'REMIX',
    params,
    price: musicFlatCredits.remix,
    tracks: (id) =>
      planTracks(
        seed,
        id,
        'musicA',
        titleFor(seed, id, { lyrics: body.lyrics }),
        tagsFor(seed, id, body.prompt.length <= 60 ? body.prompt : undefined, ['remix']),
        (i) => sourceMs ?? seededMs(seed, musicDurations.song, id, 'remix', i),
      ),
  });
};

export const extend: Handler<'extendMusic'> = ({ body }, ctx) => {
  const src = kit.own(ctx, body.taskId, { notFound: 'MUSIC_TASK_NOT_FOUND' });
  if (src.status !== 'success') throw ctx.fail('MUSIC_TASK_NOT_READY', `taskId ${src.id} is ${src.status}; only a succeeded music task can be extended`);
  const provider = src.provider;
  if (body.provider !== undefined && resolveProvider(body.provider) !== provider)
    throw ctx.fail(
      'MUSIC_PROVIDER_UNSUPPORTED',
      `provider: ${body.provider} runs on ${resolveProvider(body.provider)}, and task ${src.id} was made by ${provider}`,
    );
  const model = body.model ?? defaultModelOf[provider];
  if (!modelsOf(provider).includes(model))
    throw ctx.fail(
      'MUSIC_MODEL_UNSUPPORTED',
      `model: ${model} is not a ${provider} model (task ${src.id} is ${provider}'s); ${provider} takes ${modelsOf(provider).join(', ')}`,
    );
  const musicB = Object.fromEntries(musicBParameterNames.extend.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
  if (provider === 'musicA' && Object.keys(musicB).length)
    throw ctx.fail('MUSIC_PROVIDER_UNSUPPORTED', `${Object.keys(musicB).join(', ')}: musicB parameters; task ${src.id} is musicA's`);
  let index = body.trackIndex ?? 0;
  if (body.providerSongId !== undefined) {
    index = src.tracks.findIndex((_, i) => providerSongIdOf(provider, src.id, i) === body.providerSongId);
    if (index < 0) throw ctx.fail('MUSIC_INVALID_PARAMETERS', `providerSongId: ${body.providerSongId} is not a track of task ${src.id}`);
  } else if (index >= src.tracks.length)
    throw ctx.fail(
      'MUSIC_INVALID_PARAMETERS',
      `trackIndex: ${index} is out of range; task ${src.id} has ${src.tracks.length} track${src.tracks.length === 1 ? '' : 's'} (0-${src.tracks.length - 1})`,
    );
  const source = src.tracks[index];
  const sourceS = source.durationMs / 1000;
  const continueAt = body.continueAt ?? sourceS;
  if (continueAt > sourceS) throw ctx.fail('MUSIC_INVALID_PARAMETERS', `continueAt: ${continueAt} s is past the end of the track (${sourceS} s long)`);
  const seed = ctx.engine.seed;
  const params: MusicTaskParams = {
    model: extendPricedModel(model),
    prompt: body.prompt ?? '',
    instrumental: src.params.instrumental,
    ...texts(body, ['lyrics'] as const),
    ...(Object.keys(musicB).length ? { providerParams: musicB } : {}),
    taskId: src.id,
    trackIndex: index,
    ...(body.providerSongId !== undefined ? { providerSongId: body.providerSongId } : {}),
    continueAt,
  };
  return start(ctx, {
    provider,
    taskType: 'EXTEND',
    params,
    price: extendCredits(model),
    tracks: (id) =>
      planTracks(
        seed,
        id,
        provider,
        `${source.title} (Extended)`,
        source.tags,
        (i) => continueAt * 1000 + seededMs(seed, musicDurations.extension, id, 'extension', i),
      ),
  });
};

export const get: Handler<'getMusicTask'> = ({ params }, ctx) => present(kit.own(ctx, params.taskId, { notFound: 'MUSIC_TASK_NOT_FOUND' }), ctx);

export const list: Handler<'listMusicTasks'> = ({ query }, ctx) => kit.page(ctx, query, (r) => present(r, ctx));
