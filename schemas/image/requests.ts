/**
 * The image request (schemas/image.ts re-exports it): the body shared by the
 * synchronous, asynchronous and estimate endpoints, its resolution (defaults
 * and family rules) and its rules, read from the tables. Seed: document 1,
 * "Image: request schema".
 */
import { z } from '../zod.ts';
import { js, rule, withRules, type BodyRule, type JsonSchema, type StateRule } from '../rules.ts';
import { assumed, describeProvenance } from '../provenance.ts';
import {
  imageSizes,
  imageProviders,
  imageMimeTypes,
  imageQualities,
  DEFAULT_IMAGE_QUALITY,
  type ImageFamily,
  imageFamilies,
  type ImageModel,
  imageModels,
  type ImageModelId,
  imageModelIds,
  DEFAULT_IMAGE_MODEL,
  legacyImageModelIds,
  acceptedModelIds,
  normalizeImageModel,
  MAX_REFERENCE_IMAGES,
  renderImageModelTable,
  aspectRatioRules,
  type ResolvedImageRequest,
} from './tables.ts';

// ---------------------------------------------------------------------------
// Request
// ---------------------------------------------------------------------------

const ImageMimeType = z.enum(imageMimeTypes).meta({ description: 'image/png, image/jpeg, image/webp, image/heic or image/heif' });
/** http, https or gs, scheme case-insensitive (no regex flags: JSON Schema patterns carry none). */
const FILE_URI = /^([hH][tT][tT][pP][sS]?|[gG][sS]):\/\/\S+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/**
 * A ratio W:H of two whole numbers, each 1 to 9999 (assumed: document 1 names ratios W:H and lets image-c accept
 * any; the bound keeps the pixel size computable). Which ratios a model accepts is a rule per model (imageRules).
 */
const RATIO = /^[1-9][0-9]{0,3}:[1-9][0-9]{0,3}$/;

/** A reference image given by URL (document 1, "Image: request schema"). */
export const ImageFileData = z
  .object({
    fileUri: z.string().regex(FILE_URI).meta({ description: 'URL of the image; scheme http, https or gs', example: 'https://example.com/cat.png' }),
    mimeType: ImageMimeType,
  })
  .openapi('ImageFileData');
/** A reference image inlined as base64 (document 1, "Image: request schema"). */
export const ImageInlineData = z
  .object({
    data: z.string().min(1).regex(BASE64).meta({
      description:
        'base64 image bytes (standard alphabet, no line breaks); base64 inflates by about one third, keep inlined originals under about 18 MB in total',
    }),
    mimeType: ImageMimeType,
  })
  .openapi('ImageInlineData');
/** One reference image: fileData or inlineData; send exactly one (an item with both passes validation, behaviour undefined). */
export const ReferenceImage = z
  .object({ fileData: ImageFileData.optional(), inlineData: ImageInlineData.optional() })
  .meta({
    description: 'carries fileData or inlineData; send exactly one (an item with both passes validation but behaviour is undefined; it counts once)',
  })
  .openapi('ImageReferenceImage');

/** imageConfig (document 1, "Image: request schema"). */
export const ImageConfig = z
  .object({
    imageSize: z.enum(imageSizes).default('2K').meta({
      description: '1K, 2K (default), 4K; per model (image-c-5-0-pro and image-d-2.7 have no 4K; image-d-2.7-pro has 4K only without reference images)',
    }),
    aspectRatio: z
      .string()
      .regex(RATIO)
      .default('1:1')
      .meta({
        description:
          'W:H; schema default 1:1 once an imageConfig object is sent; which ratios a model accepts is per model (see the model table): image-c accepts any ratio',
        example: '16:9',
        'x-provenance': describeProvenance(
          assumed('document 1 lets image-c accept any ratio; a ratio is read as W:H of two whole numbers 1-9999 (the bound keeps the pixel size computable)'),
        ),
      }),
    quality: z
      .enum(imageQualities)
      .optional()
      .meta({
        description: `low, medium, high; honoured only by image-a-2-official (default ${DEFAULT_IMAGE_QUALITY}, assumed); every other model drops it silently`,
      }),
  })
  // document 1: the field's default is { imageSize: 2K } (the component is only used as that field)
  .openapi('ImageConfig', { default: { imageSize: '2K' } });

const ProviderField = z
  .enum(imageProviders)
  .meta({ description: 'vendor_b, vendor_a, vendor_c, vendor_d or vendor_e; validated but not used for routing (the model decides)' });
const commonRequestFields = {
  model: z
    .enum(acceptedModelIds)
    .default(DEFAULT_IMAGE_MODEL)
    .meta({
      description: `default ${DEFAULT_IMAGE_MODEL}; one of ${imageModelIds.join(', ')}; legacy preview ids (${Object.keys(legacyImageModelIds).join(', ')}; assumed) are normalised to their current ids`,
    }),
  referenceImages: z
    .array(ReferenceImage)
    .optional()
    .meta({
      maxItems: MAX_REFERENCE_IMAGES,
      description: `at most ${MAX_REFERENCE_IMAGES} items for every model; image-a 4, image-b 14, image-c 10, image-d 9 (400, code 26003, naming the limit)`,
    }),
  // document 1: default { imageSize: 2K } (on the component). Shown in the spec only: an imageConfig sent (even this one) sets the ratio to 1:1 on every model
  imageConfig: ImageConfig.optional().meta({ description: 'default { imageSize: 2K } (aspect ratio then resolved per family, see the operation description)' }),
};
const generateBase = z.object({
  provider: ProviderField,
  prompt: z.string().min(1).meta({ description: 'text description; required' }),
  ...commonRequestFields,
});
const estimateBase = z.object({
  provider: ProviderField.optional(),
  prompt: z
    .string()
    .optional()
    .meta({ description: 'text description; optional or empty on estimate (its length drives the token estimate of image-a-2-official)' }),
  ...commonRequestFields,
});
type ImageRequestBase = z.infer<typeof generateBase> | z.infer<typeof estimateBase>;

/** Resolves model, size, ratio and quality of a request (document 1, "Image: request schema"). */
export function resolveImageRequest(v: Pick<ImageRequestBase, 'model' | 'imageConfig' | 'referenceImages'>): ResolvedImageRequest {
  const model = normalizeImageModel(v.model);
  const m: ImageModel = imageModels[model];
  const refs = v.referenceImages ?? [];
  return {
    model,
    family: m.family,
    imageSize: v.imageConfig?.imageSize ?? '2K',
    aspectRatio: v.imageConfig ? v.imageConfig.aspectRatio : imageFamilies[m.family].ratioWhenConfigOmitted,
    quality: m.honorsQuality ? (v.imageConfig?.quality ?? DEFAULT_IMAGE_QUALITY) : null,
    qualityIgnored: !m.honorsQuality && v.imageConfig?.quality !== undefined,
    referenceCount: refs.length,
    inlineReferenceCount: refs.filter((r) => r.inlineData !== undefined).length,
  };
}

type ImageBody = ImageRequestBase;
/** Every accepted model id (legacy preview ids included) whose model satisfies `pick`. */
const acceptedWhere = (pick: (m: ImageModel, id: ImageModelId) => boolean) =>
  acceptedModelIds.filter((id) => pick(imageModels[normalizeImageModel(id)], normalizeImageModel(id)));
const imageConfigProp = (field: string, schema: JsonSchema): JsonSchema => ({ properties: { imageConfig: { properties: { [field]: schema } } } });
const hasReferences: JsonSchema = { required: ['referenceImages'], properties: { referenceImages: { minItems: 1 } } };

/**
 * Every rule of an image request (document 1, "Image: request schema", "Image models", "Limits"), in the order they are reported.
 * Errors: IMAGE_INVALID_PARAMETERS (26001), IMAGE_UNSUPPORTED_SIZE (26002), IMAGE_TOO_MANY_REFERENCE_IMAGES (26003),
 * IMAGE_UNSUPPORTED_RATIO (26019, image-a and image-d), IMAGE_B_UNSUPPORTED_RATIO (29003, image-b).
 */
function imageRules(mode: 'generate' | 'estimate'): BodyRule<ImageBody>[] {
  const families = Object.keys(imageFamilies) as ImageFamily[];
  const modelOf = (v: ImageBody) => normalizeImageModel(v.model);
  return [
    ...(mode === 'generate'
      ? [
          rule<ImageBody>({
            id: 'image.prompt-not-blank',
            rule: 'prompt is not blank',
            code: 'IMAGE_INVALID_PARAMETERS',
            path: ['prompt'],
            message: 'prompt is required and must not be blank',
            then: { properties: { prompt: js.notBlank } },
          }),
        ]
      : []),
    rule<ImageBody>({
      id: 'image.reference-has-data',
      rule: 'each reference image carries fileData or inlineData',
      code: 'IMAGE_INVALID_PARAMETERS',
      path: (v) => [
        'referenceImages',
        Math.max(
          0,
          (v.referenceImages ?? []).findIndex((r) => !r.fileData && !r.inlineData),
        ),
      ],
      message: 'a reference image must carry fileData or inlineData',
      then: { properties: { referenceImages: { items: { anyOf: [{ required: ['fileData'] }, { required: ['inlineData'] }] } } } },
    }),
    ...families
      // every family's limit, within the 14 of the schema cap
      .map((f) => {
        const max = Math.min(imageFamilies[f].maxReferenceImages, MAX_REFERENCE_IMAGES);
        return rule<ImageBody>({
          id: `image.references-max.${f}`,
          rule: `${f} models: at most ${max} reference images`,
          code: 'IMAGE_TOO_MANY_REFERENCE_IMAGES',
          path: ['referenceImages'],
          message: (v) => `referenceImages has ${(v.referenceImages ?? []).length} items; ${modelOf(v)} (${f}) accepts at most ${max}`,
          when: { model: acceptedWhere((m) => m.family === f) },
          then: { properties: { referenceImages: { maxItems: max } } },
        });
      }),
    ...imageModelIds
      .filter((id) => imageModels[id].sizes.length < imageSizes.length)
      .map((id) => {
        const sizes = imageModels[id].sizes;
        return rule<ImageBody>({
          id: `image.size.${id}`,
          rule: `${id}: imageSize ${sizes.join(' or ')}`,
          code: 'IMAGE_UNSUPPORTED_SIZE',
          path: ['imageConfig', 'imageSize'],
          message: (v) => `imageSize ${v.imageConfig?.imageSize} is not supported by ${id} (supported: ${sizes.join(', ')})`,
          when: { model: acceptedWhere((_, m) => m === id) },
          then: imageConfigProp('imageSize', { enum: [...sizes] }),
        });
      }),
    ...imageModelIds
      .filter((id) => (imageModels[id] as ImageModel).fourKTextToImageOnly)
      .map((id) =>
        rule<ImageBody>({
          id: `image.4k-text-only.${id}`,
          rule: `${id}: 4K only without reference images`,
          code: 'IMAGE_UNSUPPORTED_SIZE',
          path: ['imageConfig', 'imageSize'],
          message: `imageSize 4K is only available for text-to-image on ${id}; remove the reference images or use 1K or 2K`,
          when: { model: acceptedWhere((_, m) => m === id) },
          then: { if: hasReferences, then: imageConfigProp('imageSize', { not: { const: '4K' } }) },
        }),
      ),
    ...imageModelIds
      .filter((id) => imageFamilies[imageModels[id].family].unsupportedRatioError !== null)
      .map((id) => {
        const ratios = imageModels[id].ratios;
        return rule<ImageBody>({
          id: `image.ratio.${id}`,
          rule: `${id}: aspectRatio ${ratios.join(', ')}`,
          code: imageFamilies[imageModels[id].family].unsupportedRatioError!,
          path: ['imageConfig', 'aspectRatio'],
          message: (v) => `aspectRatio ${v.imageConfig?.aspectRatio} is not supported by ${id}; supported: ${ratios.join(', ')}`,
          when: { model: acceptedWhere((_, m) => m === id) },
          then: imageConfigProp('aspectRatio', { enum: [...ratios] }),
        });
      }),
  ];
}

const requestExample = {
  provider: 'vendor_a',
  model: 'image-a-2',
  prompt: 'A lighthouse on a cliff at sunset, watercolor',
  imageConfig: { imageSize: '1K', aspectRatio: '16:9' },
};

const requestDescription = (what: string) =>
  `${what}\n\nModels (document 1, "Image models"):\n\n${renderImageModelTable()}\n\n${aspectRatioRules}\n\n` +
  'Size rules: image-c-5-0-pro and image-d-2.7 answer 400 (code 26002) for 4K; image-d-2.7-pro answers 400 (26002) for 4K when reference images are present. ' +
  'More reference images than the family allows: 400 (26003), the message names the limit. Only image-a-2-official honours quality.';

/** Body of POST /v1/images/generation and POST /v1/images/generation/async (document 1, "Image: request schema"). */
export const ImageGenerationRequest = withRules(generateBase, imageRules('generate'), 'ImageGenerationRequest', {
  description: requestDescription('Generate an image. provider and prompt are required.'),
  example: requestExample,
});
export type ImageGenerationRequest = z.infer<typeof ImageGenerationRequest>;

/** Body of POST /v1/images/generation/estimate-credits: the same body, provider optional, prompt optional or empty. */
export const EstimateImageCreditsRequest = withRules(estimateBase, imageRules('estimate'), 'EstimateImageCreditsRequest', {
  description: requestDescription('Estimate an image generation. provider is optional; prompt is optional or empty.'),
  example: {
    model: 'image-a-2-official',
    prompt: 'A lighthouse on a cliff at sunset',
    imageConfig: { imageSize: '2K', aspectRatio: '1:1', quality: 'high' },
  },
});
export type EstimateImageCreditsRequest = z.infer<typeof EstimateImageCreditsRequest>;

/** Rules of the image generate endpoints that read the account (listed in x-rules). */
export const imageStateRules: StateRule[] = [
  {
    code: 'IMAGE_SUBSCRIPTION_REQUIRED',
    fields: ['model', 'imageConfig.imageSize', 'imageConfig.quality'],
    rule: 'the models and sizes that need a subscription need a paid plan',
    reads: 'account',
  },
  { code: 'IMAGE_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance (or a free generation) covers the price', reads: 'account' },
  { code: 'IMAGE_RATE_LIMITED', fields: ['referenceImages'], rule: 'requests with base64 reference images have a tighter rate limit', reads: 'account' },
];
