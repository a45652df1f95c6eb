/**
 * Two-decimal numbers in the emitted document (document 2: speed 0.5-2.0, "at most two decimals"): ajv with its
 * defaults (no multipleOfPrecision, as a client's validator runs) accepts every allowed speed, 0.50 to 2.00 by 0.01,
 * on every operation whose request body has a speed, both the field's schema and a whole body; and the document
 * carries no `multipleOf` a binary floating-point division would break. The two-decimal rule itself is in `x-rules`.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { flowSpeechBody, flowSpeechTtsBody, podcastBody, speechBody, ttsBody, type Body } from './factories.ts';

const spec = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateSchema: false }));
ajv.addFormat('binary', true);
ajv.addSchema(spec, 'spec');

/** Every allowed speed, written as a client writes it: 0.5, 0.51, ..., 2 (each i / 100, the nearest double to the decimal). */
const grid = Array.from({ length: 151 }, (_, i) => (50 + i) / 100);

/** The JSON Pointer of the request body schema of `op`. */
function bodyPointer(op: OperationDef): string {
  return ['paths', op.path, op.method, 'requestBody', 'content', 'application/json', 'schema'].map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** The object schema a body schema refers to (its $ref followed). */
function resolve(node: { $ref?: string }): Record<string, any> {
  if (!node.$ref) return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((n: any, k) => n[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
}

const withSpeed = (Object.keys(operations) as OperationId[]).filter((id) => {
  const op = operations[id] as OperationDef;
  const schema = spec.paths[op.path]?.[op.method]?.requestBody?.content?.['application/json']?.schema;
  return schema !== undefined && resolve(schema).properties?.speed !== undefined;
});

/** A body of each operation that keeps every other rule (test/factories.ts). */
const bodies: Partial<Record<OperationId, () => Body>> = {
  synthesizeSpeech: ttsBody,
  createSpeech: ttsBody,
  createSpeechScript: speechBody,
  createFlowSpeechEpisode: flowSpeechBody,
  createFlowSpeechTtsEpisode: flowSpeechTtsBody,
  createPodcastEpisode: podcastBody,
};

describe('every allowed speed validates with ajv over spec/openapi.json', () => {
  it('finds the operations with a speed', () => {
    expect(withSpeed).toEqual(expect.arrayContaining(['synthesizeSpeech', 'createSpeech', 'createSpeechScript', 'createPodcastEpisode']));
    expect(grid).toHaveLength(151);
    expect(grid).toContain(1.15);
    expect(grid.at(-1)).toBe(2);
  });

  it.each(withSpeed)('%s: the field, 0.50-2.00 by 0.01', (id) => {
    const op = operations[id] as OperationDef;
    const speedSchema = resolve(resolve(spec.paths[op.path][op.method].requestBody.content['application/json'].schema).properties.speed);
    const field = ajv.compile(speedSchema);
    expect(grid.filter((s) => !field(s))).toEqual([]);
    // out of range stays refused
    expect([0.49, 2.01, 3].filter((s) => field(s))).toEqual([]);
  });

  it.each(withSpeed.filter((id) => bodies[id]))('%s: a whole body at every speed', (id) => {
    const op = operations[id] as OperationDef;
    const validate = ajv.compile({ $ref: `spec#/${bodyPointer(op)}` });
    const refused = grid.filter((speed) => !validate({ ...bodies[id]!(), speed }));
    expect(refused, JSON.stringify(validate.errors)).toEqual([]);
  });

  it('the document has no multipleOf with a step binary floating point cannot hold', () => {
    const steps: number[] = [];
    const walk = (n: unknown): void => {
      if (Array.isArray(n)) n.forEach(walk);
      else if (n && typeof n === 'object')
        for (const [k, v] of Object.entries(n)) {
          if (k === 'multipleOf' && typeof v === 'number') steps.push(v);
          walk(v);
        }
    };
    walk(spec);
    // an integer step, or a power of two's reciprocal, divides exactly
    expect(steps.filter((m) => !Number.isInteger(m) && !Number.isInteger(Math.log2(1 / m)))).toEqual([]);
  });
});
