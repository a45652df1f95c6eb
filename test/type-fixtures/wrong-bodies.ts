/**
 * Bodies that must not compile with the generated types and openapi-fetch
 * (test/types.test.ts compiles this file under strict,
 * exactOptionalPropertyTypes and noUncheckedIndexedAccess: an
 * `@ts-expect-error` that is not needed fails the compile), next to right
 * ones that must compile, for the API and the control API.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/api.d.ts';
import type { paths as ControlPaths } from '../../generated/mock-control.d.ts';

const client = createClient<paths>({ baseUrl: 'http://localhost:4010' });
const control = createClient<ControlPaths>({ baseUrl: 'http://localhost:4010' });

export async function bodies(): Promise<void> {
  // defaulted fields (model, ratio, duration, imageConfig.imageSize...) may be left out
  await client.POST('/v1/video-generation/generate', { body: { content: [{ type: 'text', text: 'a fox' }] } });
  await client.POST('/v1/images/generation/async', { body: { provider: 'vendor_a', prompt: 'a kite', imageConfig: { aspectRatio: '16:9' } } });
  // @ts-expect-error a model that is not in the enum
  await client.POST('/v1/video-generation/generate', { body: { model: 'family9-video', content: [{ type: 'text', text: 'a fox' }] } });
  // @ts-expect-error content is required
  await client.POST('/v1/video-generation/generate', { body: { model: 'family1-video-2-fast' } });
  // @ts-expect-error prompt is a string
  await client.POST('/v1/images/generation/async', { body: { provider: 'vendor_a', prompt: 42 } });
  // @ts-expect-error exactOptionalPropertyTypes: an optional field is absent, not undefined
  await client.POST('/v1/video-generation/generate', { body: { content: [{ type: 'text', text: 'a fox' }], duration: undefined } });

  // responses keep their fields required
  const { data } = await client.GET('/v1/video-generation/tasks/{taskId}', { params: { path: { taskId: 'vt_1' } } });
  if (data) {
    const status: string = data.data.status;
    void status;
  }

  // the control API has types too
  await control.POST('/__mock/clock/advance', { body: { ms: 1000 } });
  // @ts-expect-error ms is a number
  await control.POST('/__mock/clock/advance', { body: { ms: 'soon' } });
  const count = await control.GET('/__mock/requests/count', { params: { query: { operationId: 'confirmVoiceClone' } } });
  const n: number | undefined = count.data?.count;
  void n;
}
