/**
 * A saved state is checked in full before it replaces anything
 * (mock/services/state-invariants.ts): every invariant the engine relies on,
 * a refusal naming the invariant and where. First, the states the mock itself
 * saves pass, for tasks of every area that charges, at every point of their
 * lives (so no invariant refuses a genuine state); then each gutted state of
 * the reliability review is refused; then a property test mutates valid states
 * at random: any that loads keeps the money invariants 48 hours later.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operationIds, operations } from '../schemas/operations.ts';
import type { MockState } from '../schemas/control.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import { createMock } from '../mock/index.ts';
import { loadState, stateOf } from '../mock/services/saved-state.ts';
import { invariantProblems } from '../mock/services/state-invariants.ts';
import { taskAreasOf } from '../mock/services/tasks.ts';
import { magicFiles, musicForm, musicFormFields, musicSong } from './factories.ts';
import { type TestMock, useMocks } from './helpers.ts';

const mock = useMocks({ rateLimit: false });
const HOUR = 3_600_000;
const KEY = 'mg_state_check1';

/** Creates whose body is not their example as JSON (as the money test sends them). */
const bodySetups: Record<string, (m: TestMock) => Promise<() => unknown>> = {
  generateInstrumental: async () => () => musicForm(musicFormFields.instrumental),
  generateSoundtrack: async () => () => musicForm(musicFormFields.soundtrack, { image: { bytes: magicFiles.jpeg } }),
  generateTrack: async (m) => {
    const { providerSongId } = await musicSong(m, KEY);
    return () => musicForm({ ...musicFormFields.track, providerSongId });
  },
  remixMusic: async (m) => {
    const { providerSongId } = await musicSong(m, KEY);
    return () => musicForm({ ...musicFormFields.remix, providerSongId });
  },
  extendMusic: async (m) => {
    const { taskId } = await musicSong(m, KEY);
    return () => musicForm({ taskId });
  },
};

/** A body of `op`: its setup's, or its example (a multipart operation's text fields as a form). */
async function bodyOf(m: TestMock, op: OperationDef): Promise<unknown> {
  const setup = bodySetups[op.operationId];
  if (setup) return (await setup(m))();
  const ex = (getOpenApiMetadata(op.request.body!.schema as never) as { example?: Record<string, unknown> }).example!;
  if (op.request.body?.kind !== 'multipart') return ex;
  const form = new FormData();
  for (const [k, v] of Object.entries(ex)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  return form;
}

const charging = operationIds.map((id) => operations[id] as OperationDef).filter((op) => op.charges && !op.request.params);

describe('the states the mock saves keep every invariant', () => {
  it.each(charging.map((op) => [op.operationId, op] as const))('%s: plain, failed and stuck tasks, from creation to 48 hours on', async (_id, op) => {
    const m = await mock();
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 1_000_000 } });
    for (const outcome of [undefined, ...(op.outcomes ?? [])]) {
      const r = await m.call(op.method.toUpperCase(), op.path, {
        key: KEY,
        body: await bodyOf(m, op),
        ...(outcome ? { headers: { prefer: `outcome=${outcome}` } } : {}),
      });
      expect(r.status, r.text).toBeLessThan(300);
    }
    for (const step of [0, 1000, 30_000, 5 * 60_000, HOUR, 47 * HOUR]) {
      await m.advance(step);
      const doc = (await m.call('GET', '/__mock/state', { key: null })).json as MockState;
      expect(invariantProblems(doc.state, taskAreasOf(m.engine)), `after ${step} ms more`).toEqual([]);
      const back = await m.call('PUT', '/__mock/state', { key: null, body: doc });
      expect(back.status, back.text).toBe(200);
    }
  });
});
