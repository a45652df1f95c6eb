/**
 * The path of a request target as the Express adapter reads it without
 * Express's request object (mock/http/app.ts, `pathOfTarget`): what
 * Express's `req.path` gives (the pathname of parseurl), for the usual
 * origin-form targets and the ones that need the full parse. Expected values
 * are written by hand from RFC 9112 section 3.2 (request targets) and RFC 3986
 * (path, query, fragment).
 */
import { describe, expect, it } from 'vitest';
import { pathOfTarget } from '../mock/http/app.ts';

describe('pathOfTarget', () => {
  it.each([
    ['/', '/'],
    ['/v1/video-generation/tasks/vt_1', '/v1/video-generation/tasks/vt_1'],
    ['/v1/tasks?page=2&pageSize=5', '/v1/tasks'],
    ['/v1/tasks?', '/v1/tasks'],
    ['/a%20b/%E2%9C%93?q=%3F', '/a%20b/%E2%9C%93'],
    ['/sessions/w1/v1/user/subscription?x=1', '/sessions/w1/v1/user/subscription'],
    // a fragment is no part of the path (a client should not send one; Node's parser lets it through)
    ['/docs#top', '/docs'],
    ['/docs/#a?b', '/docs/'],
    // absolute-form (a request sent to a proxy): the path of the URI
    ['http://localhost:4010/v1/tasks?x=1', '/v1/tasks'],
    // asterisk-form (OPTIONS *)
    ['*', '*'],
  ])('%s -> %s', (target, path) => {
    expect(pathOfTarget(target)).toBe(path);
  });
});
