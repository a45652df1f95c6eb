/**
 * Body rules measured against document 3, not against the mock's own rule table (test/spec-rules.test.ts takes its
 * cases from schemas/rules.ts, which the mock runs: agreement, not correctness). Every case below is a request body
 * written by hand from document 3 with the answer it gives: accepted, or refused. Document 3 numbers no code ("Errors":
 * "The numeric code values for lyrics, music, page-deck and extraction errors: not shown"), so a refusal expects the
 * catalogue's code (schemas/errors.ts, decisions/0003-assumed-codes.md), named beside it. Each case names its section.
 * The cases run through the mock in process and through ajv over spec/openapi.json (test/document-cases.ts); the test
 * prints both figures and fails on any case that differs.
 */
import { describe, expect, it } from 'vitest';
import { magicFiles, mp3Bytes, wavBytes, type Body } from './factories.ts';
import { describeRun, file, runDocumentCases, type DocumentCase, type Expected } from './document-cases.ts';
import { ownTrackUrl } from './document-setups.ts';

const D3 = 'document 3';
// the catalogue's codes (document 3, "Errors": the numeric code values are not shown), HTTP 400 unless said
/** Lyrics: catalogue LYRICS_INVALID_PARAMETERS. */
const LYRICS_INVALID: Expected = { status: 400, code: 38001 };
/** Music: catalogue MUSIC_INVALID_PARAMETERS. */
const MUSIC_INVALID: Expected = { status: 400, code: 39001 };
/** Music: a field of one provider sent to the other (catalogue MUSIC_PROVIDER_UNSUPPORTED). */
const MUSIC_PROVIDER: Expected = { status: 400, code: 39006 };
/** Music: a model the provider or endpoint does not offer (catalogue MUSIC_MODEL_UNSUPPORTED). */
const MUSIC_MODEL: Expected = { status: 400, code: 39007 };
/** Music: an upload of a type the field does not take (catalogue MUSIC_UNSUPPORTED_FILE). */
const MUSIC_FILE_TYPE: Expected = { status: 400, code: 39004 };
/** Music: an upload over "at most 10 MB" (document 3, "Limits"; catalogue MUSIC_FILE_TOO_LARGE, HTTP 413). */
const MUSIC_TOO_LARGE: Expected = { status: 413, code: 39005 };
/** Page-deck episodes: catalogue STORYBOOK_INVALID_PARAMETERS. */
const DECK_INVALID: Expected = { status: 400, code: 40001 };
/** Page-deck episodes: a speakerId no speaker list holds (catalogue STORYBOOK_SPEAKER_NOT_FOUND). */
const DECK_SPEAKER: Expected = { status: 400, code: 40003 };
/** Extraction: catalogue EXTRACTION_INVALID_PARAMETERS. */
const EXTRACT_INVALID: Expected = { status: 400, code: 41001 };

const ok = 'accepted' as const;
const x = (n: number) => 'x'.repeat(n);
/** Why ajv cannot judge an upload's size or its type by content. */
const UPLOAD = "an upload's size or its type judged by its bytes (the multipart limits beside the schema)";
// uploads: bytes of each type, judged by content
const mp3 = () => file('song.mp3', mp3Bytes({ seconds: 5 }));
const wav = () => file('song.wav', wavBytes(3));
const jpeg = () => file('cover.jpg', magicFiles.jpeg);
const gif = () => file('cover.gif', new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;'));
const mp4 = () => file('clip.mp4', magicFiles.mp4);
const SONG_ID = 'ma_1a2b3c4d5e6f7a8b_0';

// ---------------------------------------------------------------------------
// document 3, "Lyrics (prefix /v1/lyrics)", "Limits"
// ---------------------------------------------------------------------------

const LYR = `${D3}, "Lyrics": POST /v1/lyrics/generate`;
const lyricsCases: DocumentCase[] = [
  { source: LYR, what: 'a prompt alone (provider default)', op: 'createLyricsTask', body: { prompt: 'a summer road trip' }, expected: ok },
  { source: LYR, what: 'provider musicB', op: 'createLyricsTask', body: { prompt: 'rain in the city', provider: 'musicB' }, expected: ok },
  { source: LYR, what: 'provider musicA', op: 'createLyricsTask', body: { prompt: 'rain in the city', provider: 'musicA' }, expected: ok },
  { source: LYR, what: 'prompt is required', op: 'createLyricsTask', body: { provider: 'musicA' }, expected: LYRICS_INVALID },
  { source: `${D3}, "Limits": lyrics prompt at most 200 characters`, what: 'a prompt of 200', op: 'createLyricsTask', body: { prompt: x(200) }, expected: ok },
  {
    source: `${D3}, "Limits": lyrics prompt at most 200 characters`,
    what: 'a prompt of 201',
    op: 'createLyricsTask',
    body: { prompt: x(201) },
    expected: LYRICS_INVALID,
  },
  {
    source: `${D3}, "Limits": lyrics prompt at most 200 characters`,
    what: 'a prompt of 200 emoji (characters, not UTF-16 units)',
    op: 'createLyricsTask',
    body: { prompt: '🎵'.repeat(200) },
    expected: ok,
  },
  {
    source: LYR,
    what: 'a provider outside default, musicA, musicB',
    op: 'createLyricsTask',
    body: { prompt: 'rain', provider: 'musicC' },
    expected: LYRICS_INVALID,
  },
];

// ---------------------------------------------------------------------------
// document 3, "Music: asynchronous generation", "Providers and models", "musicB parameters"
// ---------------------------------------------------------------------------

const GEN = `${D3}, "Music": POST /v1/music/generate`;
const MODELS = `${D3}, "Providers and models"`;
const PARAMS = `${D3}, "musicB parameters"`;
const lyrics = '[Verse]\nDriving west with the windows down';
const musicA = (over: Body = {}): Body => ({ prompt: 'indie folk, warm guitar', lyrics, ...over });
const musicB = (over: Body = {}): Body => ({ provider: 'musicB', prompt: lyrics, style: 'indie folk', title: 'West', ...over });

const generateCases: DocumentCase[] = [
  { source: GEN, what: 'musicA (default provider) with lyrics', op: 'generateMusic', body: musicA(), expected: ok },
  { source: GEN, what: 'musicA without lyrics, not instrumental', op: 'generateMusic', body: musicA({ lyrics: undefined }), expected: MUSIC_INVALID },
  { source: GEN, what: 'musicA with style in place of prompt', op: 'generateMusic', body: musicA({ prompt: undefined, style: 'indie folk' }), expected: ok },
  { source: GEN, what: 'musicA instrumental without lyrics', op: 'generateMusic', body: musicA({ lyrics: undefined, instrumental: true }), expected: ok },
  { source: GEN, what: 'musicB with prompt (read as lyrics)', op: 'generateMusic', body: musicB(), expected: ok },
  { source: GEN, what: 'musicB with lyrics and no prompt', op: 'generateMusic', body: musicB({ prompt: undefined, lyrics }), expected: ok },
  { source: GEN, what: 'musicB without custom mode, from prompt', op: 'generateMusic', body: musicB({ customMode: false }), expected: ok },
  { source: GEN, what: 'a provider outside default, musicA, musicB', op: 'generateMusic', body: musicA({ provider: 'musicC' }), expected: MUSIC_INVALID },
  { source: MODELS, what: 'musicA-9 on musicA', op: 'generateMusic', body: musicA({ model: 'musicA-9' }), expected: ok },
  { source: MODELS, what: 'musicA-7.6 on provider musicA', op: 'generateMusic', body: musicA({ provider: 'musicA', model: 'musicA-7.6' }), expected: ok },
  { source: MODELS, what: 'a musicB tier (V6) on musicA', op: 'generateMusic', body: musicA({ model: 'V6' }), expected: MUSIC_MODEL },
  { source: MODELS, what: 'V4_5PLUS on musicB', op: 'generateMusic', body: musicB({ model: 'V4_5PLUS' }), expected: ok },
  { source: MODELS, what: 'a musicA model on musicB', op: 'generateMusic', body: musicB({ model: 'musicA-8' }), expected: MUSIC_MODEL },
  { source: MODELS, what: 'an unknown model', op: 'generateMusic', body: musicA({ model: 'musicA-10' }), expected: MUSIC_MODEL },
  { source: GEN, what: 'vocalId on musicA', op: 'generateMusic', body: musicA({ vocalId: 'v_1' }), expected: ok },
  { source: GEN, what: 'vocalId is musicA only: on musicB', op: 'generateMusic', body: musicB({ vocalId: 'v_1' }), expected: MUSIC_PROVIDER },
  { source: GEN, what: 'customMode is musicB only: on musicA', op: 'generateMusic', body: musicA({ customMode: true }), expected: MUSIC_PROVIDER },
  {
    source: PARAMS,
    what: 'every musicB parameter in range',
    op: 'generateMusic',
    body: musicB({
      providerParams: {
        negativeTags: 'metal, screaming',
        vocalGender: 'f',
        styleWeight: 0,
        weirdnessConstraint: 1,
        audioWeight: 0.5,
        personaId: 'p_1',
        personaModel: 'V6',
      },
    }),
    expected: ok,
  },
  { source: PARAMS, what: 'keys outside the list are dropped', op: 'generateMusic', body: musicB({ providerParams: { tempo: 120 } }), expected: ok },
  {
    source: PARAMS,
    what: 'vocalGender male (m or f here)',
    op: 'generateMusic',
    body: musicB({ providerParams: { vocalGender: 'male' } }),
    expected: MUSIC_INVALID,
  },
  { source: PARAMS, what: 'styleWeight 1.5 (0-1)', op: 'generateMusic', body: musicB({ providerParams: { styleWeight: 1.5 } }), expected: MUSIC_INVALID },
  {
    source: PARAMS,
    what: 'weirdnessConstraint -0.1 (0-1)',
    op: 'generateMusic',
    body: musicB({ providerParams: { weirdnessConstraint: -0.1 } }),
    expected: MUSIC_INVALID,
  },
  { source: PARAMS, what: 'audioWeight 2 (0-1)', op: 'generateMusic', body: musicB({ providerParams: { audioWeight: 2 } }), expected: MUSIC_INVALID },
  {
    source: PARAMS,
    what: 'personaModel without personaId ("pass with personaId")',
    op: 'generateMusic',
    body: musicB({ providerParams: { personaModel: 'V6' } }),
    expected: MUSIC_INVALID,
  },
];

const COVER = `${D3}, "Music": POST /v1/music/cover`;
const cover = (over: Body = {}): Body => ({
  uploadUrl: 'https://example.com/recordings/demo.mp3',
  style: 'lo-fi jazz',
  title: 'Demo (Jazz Cover)',
  prompt: lyrics,
  ...over,
});
const coverCases: DocumentCase[] = [
  { source: COVER, what: 'custom mode with style, title and lyrics', op: 'coverMusic', body: cover(), expected: ok },
  { source: COVER, what: 'uploadUrl is required', op: 'coverMusic', body: cover({ uploadUrl: undefined }), expected: MUSIC_INVALID },
  { source: COVER, what: 'custom mode without style', op: 'coverMusic', body: cover({ style: undefined }), expected: MUSIC_INVALID },
  { source: COVER, what: 'custom mode without title', op: 'coverMusic', body: cover({ title: undefined }), expected: MUSIC_INVALID },
  { source: COVER, what: 'custom mode, not instrumental, without prompt', op: 'coverMusic', body: cover({ prompt: undefined }), expected: MUSIC_INVALID },
  { source: COVER, what: 'custom mode instrumental without prompt', op: 'coverMusic', body: cover({ prompt: undefined, instrumental: true }), expected: ok },
  {
    source: COVER,
    what: 'customMode false from a prompt alone',
    op: 'coverMusic',
    body: cover({ customMode: false, style: undefined, title: undefined, prompt: 'a slow jazz version' }),
    expected: ok,
  },
  {
    source: COVER,
    what: 'customMode false without prompt ("drives the cover from prompt alone")',
    op: 'coverMusic',
    body: cover({ customMode: false, style: undefined, title: undefined, prompt: undefined }),
    expected: MUSIC_INVALID,
  },
  { source: COVER, what: 'model V5', op: 'coverMusic', body: cover({ model: 'V5' }), expected: ok },
  { source: COVER, what: 'a musicA model (cover is musicB only)', op: 'coverMusic', body: cover({ model: 'musicA-8' }), expected: MUSIC_MODEL },
  { source: COVER, what: 'personaId in custom mode', op: 'coverMusic', body: cover({ providerParams: { personaId: 'p_1' } }), expected: ok },
  {
    source: `${PARAMS}: personaId "on cover, custom mode only"`,
    what: 'personaId with customMode false',
    op: 'coverMusic',
    body: cover({ customMode: false, style: undefined, title: undefined, prompt: 'jazz', providerParams: { personaId: 'p_1' } }),
    expected: MUSIC_INVALID,
  },
];

// ---------------------------------------------------------------------------
// document 3, "Music": the multipart endpoints (instrumental, soundtrack, track, remix), "Limits"
// ---------------------------------------------------------------------------

const INS = `${D3}, "Music": POST /v1/music/instrumental`;
const SND = `${D3}, "Music": POST /v1/music/soundtrack`;
const TRK = `${D3}, "Music": POST /v1/music/track`;
const RMX = `${D3}, "Music": POST /v1/music/remix`;
const track = (over: Body = {}): Body => ({ generateType: 'Bass', prompt: 'a walking bass line', audio: mp3(), ...over });
const remix = (over: Body = {}): Body => ({ lyrics, prompt: 'upbeat disco', audio: mp3(), ...over });

const uploadCases: DocumentCase[] = [
  { source: INS, what: 'a prompt alone', op: 'generateInstrumental', body: { prompt: 'calm piano' }, expected: ok },
  { source: INS, what: 'referenceAudio alone (mp3)', op: 'generateInstrumental', body: { referenceAudio: mp3() }, expected: ok },
  {
    source: INS,
    what: 'prompt and referenceAudio (exactly one)',
    op: 'generateInstrumental',
    body: { prompt: 'piano', referenceAudio: mp3() },
    expected: MUSIC_INVALID,
  },
  { source: INS, what: 'neither prompt nor referenceAudio', op: 'generateInstrumental', body: { model: 'auto' }, expected: MUSIC_INVALID },
  { source: INS, what: 'model musicA-o2', op: 'generateInstrumental', body: { prompt: 'piano', model: 'musicA-o2' }, expected: ok },
  {
    source: `${MODELS}: musicA-9 "not available for /instrumental"`,
    what: 'model musicA-9',
    op: 'generateInstrumental',
    body: { prompt: 'piano', model: 'musicA-9' },
    expected: MUSIC_MODEL,
  },
  { source: INS, what: 'a musicB tier', op: 'generateInstrumental', body: { prompt: 'piano', model: 'V6' }, expected: MUSIC_MODEL },
  {
    source: INS,
    what: 'referenceAudio that is a WAV (mp3 or m4a)',
    op: 'generateInstrumental',
    body: { referenceAudio: wav() },
    expected: MUSIC_FILE_TYPE,
    notInSchema: UPLOAD,
  },
  {
    source: `${D3}, "Limits": music upload files at most 10 MB`,
    what: 'referenceAudio of 10 MB and one byte',
    op: 'generateInstrumental',
    body: { referenceAudio: file('big.mp3', mp3Bytes({ totalBytes: 10 * 1024 * 1024 + 1 })) },
    expected: MUSIC_TOO_LARGE,
    notInSchema: UPLOAD,
  },
  { source: SND, what: 'an image alone (prompt optional)', op: 'generateSoundtrack', body: { image: jpeg() }, expected: ok },
  { source: SND, what: 'a video and a prompt', op: 'generateSoundtrack', body: { video: mp4(), prompt: 'gentle strings' }, expected: ok },
  { source: SND, what: 'a mov video', op: 'generateSoundtrack', body: { video: file('clip.mov', magicFiles.mov) }, expected: ok },
  { source: SND, what: 'a webm video', op: 'generateSoundtrack', body: { video: file('clip.webm', magicFiles.webm) }, expected: ok },
  { source: SND, what: 'an image and a video (exactly one)', op: 'generateSoundtrack', body: { image: jpeg(), video: mp4() }, expected: MUSIC_INVALID },
  { source: SND, what: 'neither image nor video', op: 'generateSoundtrack', body: { prompt: 'strings' }, expected: MUSIC_INVALID },
  { source: SND, what: 'model musicA-9 (allowed here)', op: 'generateSoundtrack', body: { image: jpeg(), model: 'musicA-9' }, expected: ok },
  { source: SND, what: 'a GIF image (jpg, jpeg, png, webp)', op: 'generateSoundtrack', body: { image: gif() }, expected: MUSIC_FILE_TYPE, notInSchema: UPLOAD },
  { source: TRK, what: 'Bass over an mp3 upload', op: 'generateTrack', body: track(), expected: ok },
  { source: TRK, what: 'a WAV upload', op: 'generateTrack', body: track({ audio: wav() }), expected: ok },
  {
    source: TRK,
    what: 'Vocals with lyrics, vocalGender female and a window',
    op: 'generateTrack',
    body: track({ generateType: 'Vocals', lyrics: 'la la la', vocalGender: 'female', generateStart: 1, generateEnd: 3 }),
    expected: ok,
  },
  { source: TRK, what: 'generateType is required', op: 'generateTrack', body: track({ generateType: undefined }), expected: MUSIC_INVALID },
  { source: TRK, what: 'a generateType outside the twelve', op: 'generateTrack', body: track({ generateType: 'Piano' }), expected: MUSIC_INVALID },
  { source: TRK, what: 'prompt is required', op: 'generateTrack', body: track({ prompt: undefined }), expected: MUSIC_INVALID },
  { source: TRK, what: 'audio and providerSongId (exactly one)', op: 'generateTrack', body: track({ providerSongId: SONG_ID }), expected: MUSIC_INVALID },
  { source: TRK, what: 'neither audio nor providerSongId', op: 'generateTrack', body: track({ audio: undefined }), expected: MUSIC_INVALID },
  { source: TRK, what: 'Vocals without lyrics', op: 'generateTrack', body: track({ generateType: 'Vocals' }), expected: MUSIC_INVALID },
  {
    source: TRK,
    what: 'vocalGender f (male or female)',
    op: 'generateTrack',
    body: track({ generateType: 'Vocals', lyrics: 'la', vocalGender: 'f' }),
    expected: MUSIC_INVALID,
  },
  {
    source: TRK,
    what: 'vocalGender on Drums (Vocals only)',
    op: 'generateTrack',
    body: track({ generateType: 'Drums', vocalGender: 'male' }),
    expected: MUSIC_INVALID,
  },
  { source: TRK, what: 'generateStart not a number', op: 'generateTrack', body: track({ generateStart: 'soon' }), expected: MUSIC_INVALID },
  { source: RMX, what: 'lyrics, prompt and an upload', op: 'remixMusic', body: remix(), expected: ok },
  { source: RMX, what: 'a WAV upload (mp3 or m4a)', op: 'remixMusic', body: remix({ audio: wav() }), expected: MUSIC_FILE_TYPE, notInSchema: UPLOAD },
  { source: RMX, what: 'lyrics is required', op: 'remixMusic', body: remix({ lyrics: undefined }), expected: MUSIC_INVALID },
  { source: RMX, what: 'prompt is required', op: 'remixMusic', body: remix({ prompt: undefined }), expected: MUSIC_INVALID },
  { source: RMX, what: 'no source', op: 'remixMusic', body: remix({ audio: undefined }), expected: MUSIC_INVALID },
  { source: RMX, what: 'an upload and a providerSongId', op: 'remixMusic', body: remix({ providerSongId: SONG_ID }), expected: MUSIC_INVALID },
  { source: RMX, what: 'an upload and an audioUrl', op: 'remixMusic', body: remix({ audioUrl: 'https://example.com/a.mp3' }), expected: MUSIC_INVALID },
  {
    source: RMX,
    what: "the caller's own platform audio URL alone",
    op: 'remixMusic',
    body: remix({ audio: undefined }),
    expected: ok,
    setup: async (mock, key) => ({ body: { audioUrl: await ownTrackUrl(mock, key) } }),
  },
  {
    source: RMX,
    what: 'an audioUrl of another site (an internal platform audio URL)',
    op: 'remixMusic',
    body: remix({ audio: undefined, audioUrl: 'https://example.com/a.mp3' }),
    expected: MUSIC_INVALID,
    notInSchema: "reads the platform's origin and the caller's tracks",
  },
];

// ---------------------------------------------------------------------------
// document 3, "Page-deck episodes (prefix /v1/storybook)", "Limits"
// ---------------------------------------------------------------------------

const DECK = `${D3}, "Page-deck episodes": POST /v1/storybook/episodes`;
const text = { type: 'text', content: 'Mock servers let frontend teams work before the backend exists.' };
const deck = (over: Body = {}): Body => ({ sources: [text], speakers: [{ speakerId: 'en_ava' }], ...over });
const deckCases: DocumentCase[] = [
  { source: DECK, what: 'a text source and a speaker', op: 'createStorybookEpisode', body: deck(), expected: ok },
  {
    source: DECK,
    what: 'a url source (content is the URL)',
    op: 'createStorybookEpisode',
    body: deck({ sources: [{ type: 'url', content: 'https://example.com/post' }] }),
    expected: ok,
  },
  {
    source: DECK,
    what: 'uri and metadata accepted',
    op: 'createStorybookEpisode',
    body: deck({ sources: [{ ...text, uri: 'https://example.com/ignored', metadata: { author: 'A' } }] }),
    expected: ok,
  },
  {
    source: DECK,
    what: 'a url source whose content is not a URL',
    op: 'createStorybookEpisode',
    body: deck({ sources: [{ type: 'url', content: 'not a url' }] }),
    expected: DECK_INVALID,
  },
  { source: DECK, what: 'skipAudio true with a speaker', op: 'createStorybookEpisode', body: deck({ skipAudio: true }), expected: ok },
  { source: DECK, what: 'sources is required', op: 'createStorybookEpisode', body: deck({ sources: undefined }), expected: DECK_INVALID },
  { source: DECK, what: 'exactly 1 source: none', op: 'createStorybookEpisode', body: deck({ sources: [] }), expected: DECK_INVALID },
  { source: DECK, what: 'exactly 1 source: two', op: 'createStorybookEpisode', body: deck({ sources: [text, text] }), expected: DECK_INVALID },
  {
    source: DECK,
    what: 'a source type other than text or url',
    op: 'createStorybookEpisode',
    body: deck({ sources: [{ type: 'pdf', content: 'x' }] }),
    expected: DECK_INVALID,
  },
  { source: DECK, what: 'content is required', op: 'createStorybookEpisode', body: deck({ sources: [{ type: 'text' }] }), expected: DECK_INVALID },
  { source: DECK, what: 'speakers missing, audio wanted', op: 'createStorybookEpisode', body: deck({ speakers: undefined }), expected: DECK_INVALID },
  { source: DECK, what: 'speakers missing, skipAudio true', op: 'createStorybookEpisode', body: deck({ speakers: undefined, skipAudio: true }), expected: ok },
  {
    source: DECK,
    what: 'two speakers (at most 1)',
    op: 'createStorybookEpisode',
    body: deck({ speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }] }),
    expected: DECK_INVALID,
  },
  { source: DECK, what: 'a speaker without speakerId', op: 'createStorybookEpisode', body: deck({ speakers: [{}] }), expected: DECK_INVALID },
  { source: DECK, what: 'mode slides', op: 'createStorybookEpisode', body: deck({ mode: 'slides' }), expected: ok },
  { source: DECK, what: 'mode story', op: 'createStorybookEpisode', body: deck({ mode: 'story' }), expected: ok },
  { source: DECK, what: 'a mode outside info, story, slides', op: 'createStorybookEpisode', body: deck({ mode: 'video' }), expected: DECK_INVALID },
  { source: DECK, what: 'language "for example en, zh": zh', op: 'createStorybookEpisode', body: deck({ language: 'zh' }), expected: ok },
  {
    source: DECK,
    what: 'a speakerId no list holds',
    op: 'createStorybookEpisode',
    body: deck({ speakers: [{ speakerId: 'xx_nobody' }] }),
    expected: DECK_SPEAKER,
    notInSchema: 'reads the speaker list (x-rules, reads catalogue)',
  },
];

// ---------------------------------------------------------------------------
// document 3, "Content extraction", "Limits"
// ---------------------------------------------------------------------------

const EXT = `${D3}, "Content extraction": POST /v1/content/extract`;
const EXT_LIMITS = `${D3}, "Limits": extraction maxLength 1 to 500000, twitter.count 1-100`;
const source = { type: 'url', uri: 'https://example.com/blog/post' };
const extract = (options?: Body): Body => ({ source, ...(options ? { options } : {}) });
const extractionCases: DocumentCase[] = [
  { source: EXT, what: 'a url source', op: 'createExtraction', body: extract(), expected: ok },
  { source: EXT, what: 'options {} and summarize true', op: 'createExtraction', body: extract({ summarize: true }), expected: ok },
  { source: EXT, what: 'source is required', op: 'createExtraction', body: { options: {} }, expected: EXTRACT_INVALID },
  { source: EXT, what: 'type must be url', op: 'createExtraction', body: { source: { type: 'text', uri: source.uri } }, expected: EXTRACT_INVALID },
  { source: EXT, what: 'type is required', op: 'createExtraction', body: { source: { uri: source.uri } }, expected: EXTRACT_INVALID },
  { source: EXT, what: 'a uri that is not a URL', op: 'createExtraction', body: { source: { type: 'url', uri: 'not a url' } }, expected: EXTRACT_INVALID },
  { source: EXT, what: 'uri is required', op: 'createExtraction', body: { source: { type: 'url' } }, expected: EXTRACT_INVALID },
  { source: EXT, what: 'summarize not a boolean', op: 'createExtraction', body: extract({ summarize: 'yes' }), expected: EXTRACT_INVALID },
  { source: EXT_LIMITS, what: 'maxLength 1', op: 'createExtraction', body: extract({ maxLength: 1 }), expected: ok },
  { source: EXT_LIMITS, what: 'maxLength 500000', op: 'createExtraction', body: extract({ maxLength: 500_000 }), expected: ok },
  { source: EXT_LIMITS, what: 'maxLength 0', op: 'createExtraction', body: extract({ maxLength: 0 }), expected: EXTRACT_INVALID },
  { source: EXT_LIMITS, what: 'maxLength 500001', op: 'createExtraction', body: extract({ maxLength: 500_001 }), expected: EXTRACT_INVALID },
  { source: EXT, what: 'maxLength 2.5 (an integer)', op: 'createExtraction', body: extract({ maxLength: 2.5 }), expected: EXTRACT_INVALID },
  { source: EXT_LIMITS, what: 'twitter.count 1 and 100', op: 'createExtraction', body: extract({ twitter: { count: 100 } }), expected: ok },
  { source: EXT_LIMITS, what: 'twitter.count 1', op: 'createExtraction', body: extract({ twitter: { count: 1 } }), expected: ok },
  { source: EXT_LIMITS, what: 'twitter.count 0', op: 'createExtraction', body: extract({ twitter: { count: 0 } }), expected: EXTRACT_INVALID },
  { source: EXT_LIMITS, what: 'twitter.count 101', op: 'createExtraction', body: extract({ twitter: { count: 101 } }), expected: EXTRACT_INVALID },
];

const cases = [...lyricsCases, ...generateCases, ...coverCases, ...uploadCases, ...deckCases, ...extractionCases];

describe('body rules against cases written from document 3', () => {
  it('the cases are many, each cites its section, and they cover acceptance and every area of document 3', () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
    for (const c of cases) expect(c.source).toMatch(/^document 3, "/);
    expect(cases.filter((c) => c.expected === 'accepted').length).toBeGreaterThanOrEqual(35);
    for (const code of [38001, 39001, 39004, 39005, 39006, 39007, 40001, 41001])
      expect(cases.some((c) => typeof c.expected === 'object' && c.expected.code === code)).toBe(true);
  });

  it('the mock and ajv over spec/openapi.json answer every case as document 3 says', async () => {
    const run = await runDocumentCases(cases, 3);
    console.log(describeRun('document 3', run));
    expect(run.mockDiffer).toEqual([]);
    expect(run.ajvDiffer).toEqual([]);
  });
});
