/**
 * The Prism harness (test/prism.ts) itself, before any contract suite relies on it: it must see violations in both
 * directions. Requests go client -> Prism (proxy, --errors) -> a fresh in-process mock; a second Prism runs a
 * deliberately altered copy of spec/openapi.json, so the mock's correct answers break it in known ways.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { operations } from '../schemas/operations.ts';
import { pathOf } from './factories.ts';
import { PrismViolationError, usePrism } from './prism.ts';

/** The spec with deliberate defects, for proving the harness sees response violations. */
function alteredSpec() {
  const doc = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
  // 1. a field type the mock does not send: balance as a string
  doc.components.schemas.SubscriptionData.properties.balance = { type: 'string' };
  // (2. was a 400 allowing only its first code; every error response now refers to the one ErrorEnvelope, its
  // codes listed in x-error-codes, so the registry walk checks the codes per response instead)
  // 3. a required response header the mock does not send
  doc.paths[operations.listVideoTasks.path].get.responses['200'].headers = { 'X-Contract-Required': { required: true, schema: { type: 'string' } } };
  // 4. a status the mock answers but the document does not declare
  delete doc.paths[operations.getVideoTask.path].get.responses['400'];
  return doc;
}

const prism = usePrism();
// the altered document's calls expect violations: taken by each test, not asserted clean
const altered = usePrism({ specDocument: alteredSpec(), assertCleanAfterEach: false });

describe('harness self-checks', () => {
  it('request direction: an invalid body is flagged by Prism (422 problem+json), not forwarded, and call() throws with the text', async () => {
    const m = prism.useMock();
    const r = await prism.call('POST', pathOf('createVideoTask'), { body: { content: [] }, allowViolations: true });
    expect(r.status).toBe(422);
    expect(r.forwarded).toBe(false);
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toMatchObject({ direction: 'request', via: 'problem+json', type: 'UNPROCESSABLE_ENTITY' });
    expect(r.violations[0].validation[0].location).toEqual(['body', 'content']);
    expect(r.violations[0].text).toMatch(/body\.content: .*fewer than 1 items/);
    // without allowViolations the call fails the test with Prism's text
    const thrown = await prism.call('POST', pathOf('createVideoTask'), { body: { content: [] } }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(PrismViolationError);
    expect((thrown as Error).message).toMatch(/UNPROCESSABLE_ENTITY.*body\.content/);
    expect(prism.takeViolations()).toHaveLength(1);
    // and neither request reached the mock
    const journal = await m.call('GET', '/__mock/requests', { key: null });
    expect(journal.json.items).toEqual([]);
  });

  it('request direction: a missing Authorization header is a security violation (401 problem+json), not forwarded', async () => {
    prism.useMock();
    const r = await prism.call('GET', pathOf('getSubscription'), { key: null, allowViolations: true });
    expect(r.status).toBe(401);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'request', via: 'problem+json', type: 'UNAUTHORIZED' });
  });

  it('a body Prism cannot parse is answered by Prism itself and flagged as not forwarded', async () => {
    prism.useMock();
    const r = await prism.call('POST', pathOf('estimateVideoCredits'), {
      raw: '{"model":',
      headers: { 'content-type': 'application/json' },
      allowViolations: true,
    });
    expect(r.status).toBe(400);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'proxy', via: 'not-forwarded' });
    expect(r.violations[0].text).toMatch(/invalid_json/);
  });

  it('response direction: a response body that breaks the (deliberately altered) spec is a 500 #VIOLATIONS with sl-violations', async () => {
    const m = altered.useMock();
    const r = await altered.call('GET', pathOf('getSubscription'), { allowViolations: true });
    expect(r.status).toBe(500);
    // the mock itself answered a correct 200; Prism swallowed it
    expect(r.upstream?.status).toBe(200);
    expect(JSON.parse(r.upstream!.text).data.balance).toBe(10_000);
    expect(r.headers.get('sl-violations')).toBeTruthy();
    const vias = r.violations.map((v) => v.via).sort();
    expect(vias).toEqual(['problem+json', 'sl-violations']);
    for (const v of r.violations) {
      expect(v.direction).toBe('response');
      expect(v.validation.some((x) => x.location?.join('.') === 'response.body.data.balance')).toBe(true);
    }
    const thrown = await altered.call('GET', pathOf('getSubscription')).catch((e: unknown) => e);
    expect((thrown as Error).message).toMatch(/VIOLATIONS.*response\.body\.data\.balance/);
    altered.takeViolations();
    expect(m.bugs).toEqual([]);
  });

  it('response direction: a missing required response header is reported', async () => {
    altered.useMock();
    const r = await altered.call('GET', pathOf('listVideoTasks'), { allowViolations: true });
    expect(r.status).toBe(500);
    expect(r.upstream?.status).toBe(200);
    expect(r.violations.length).toBeGreaterThan(0);
    expect(r.violations.some((v) => v.direction === 'response' && v.validation.some((x) => (x.location ?? []).join('.').startsWith('response.header')))).toBe(
      true,
    );
  });

  it('response direction: an undeclared status is only a Warning for Prism (forwarded as is), caught through the sl-violations header', async () => {
    altered.useMock();
    const r = await altered.call('GET', pathOf('getVideoTask', { taskId: 'vt_0000000000000000' }), { allowViolations: true });
    // Prism forwards the mock's 400 unchanged: no problem+json, no 500
    expect(r.status).toBe(400);
    expect(r.forwarded).toBe(true);
    expect(r.json.code).toBe(errorCatalog.VIDEO_TASK_NOT_FOUND.code);
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toMatchObject({ direction: 'response', via: 'sl-violations' });
    expect(r.violations[0].validation[0]).toMatchObject({ location: ['response'], severity: 'Warning' });
    expect(r.violations[0].text).toMatch(/Unable to match the returned status code/);
  });
});
