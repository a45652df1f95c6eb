/**
 * Control bodies are bounded before they are read (docs/architecture.md,
 * "The request path"; mock/http/capacity.ts): a state document past its cap
 * (--max-state-mb, default 64 MiB) is answered 413 (PAYLOAD_TOO_LARGE, 10006)
 * from its Content-Length, before a byte of it is read and without reserving
 * anything against the cap of bodies in flight; a chunked one is cut off at
 * the cap while it streams. Before, a state of up to 512 MiB was read whole,
 * and a larger one reserved the whole in-flight budget while it was read off.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAX_STATE_BYTES } from '../schemas/control.ts';
import { errorCatalog } from '../schemas/errors.ts';
import { Capacity } from '../mock/http/capacity.ts';
import { KEY, useMocks } from './helpers.ts';

const mock = useMocks();
const TOO_LARGE = errorCatalog.PAYLOAD_TOO_LARGE.code;

/** Sends request `head` (its lines, without the blank line) and `first` bytes of body; resolves with what the server answers, never sending more. */
function headersOnly(base: string, head: string[], first = ''): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(`${head.join('\r\n')}\r\nHost: ${url.host}\r\n\r\n${first}`));
    let text = '';
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      // the whole answer is there once its body (JSON) has closed
      if (/\r\n\r\n\{.*\}$/s.test(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('the state document cap', () => {
  it('the default is well under 512 MiB', () => {
    expect(MAX_STATE_BYTES).toBe(64 * 1024 * 1024);
  });

  it('a Content-Length past the cap: 413 at once, nothing read, nothing reserved, the state kept', async () => {
    const m = await mock({ maxInflightBodyBytes: 1024 * 1024 });
    const before = await m.call('GET', '/__mock/state', { key: null });
    // 528 MB declared, 10 bytes sent: the answer comes without the rest
    const answer = await headersOnly(m.base, ['PUT /__mock/state HTTP/1.1', 'Content-Type: application/json', 'Content-Length: 528000000'], '{"format":');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(answer).toMatch(/^connection: close$/im);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: number; message: string };
    expect(body.code).toBe(TOO_LARGE);
    expect(body.message).toContain('528000000 bytes, more than the 67108864 bytes (64 MiB)');
    expect(body.message).toContain('--max-state-mb');
    // the in-flight budget (1 MiB here) was not taken: a body of 900 KiB is read at once
    const advance = await m.call('POST', '/__mock/clock/advance', {
      key: null,
      raw: `{"ms":1000}${' '.repeat(900 * 1024)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(advance.status, advance.text).toBe(200);
    const after = await m.call('GET', '/__mock/state', { key: null });
    expect(after.json.state.now).toBe(before.json.state.now + 1000);
  });

  it('maxStateBytes (--max-state-mb) sets the cap: one byte over is refused, a document at the cap is read', async () => {
    const m = await mock({ maxStateBytes: 1024 * 1024 });
    const doc = (await m.call('GET', '/__mock/state', { key: null })).text;
    const over = await headersOnly(m.base, ['PUT /__mock/state HTTP/1.1', 'Content-Type: application/json', `Content-Length: ${1024 * 1024 + 1}`]);
    expect(over.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(over).toContain('(1 MiB) this mock reads (--max-state-mb)');
    const at = await m.call('PUT', '/__mock/state', {
      key: null,
      raw: doc + ' '.repeat(1024 * 1024 - Buffer.byteLength(doc)),
      headers: { 'content-type': 'application/json' },
    });
    expect(at.status, at.text).toBe(200);
  });

  it('a chunked document is cut off at the cap while it streams: 413 before it ends', async () => {
    const m = await mock({ maxStateBytes: 256 * 1024 });
    const url = new URL(m.base);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({
        host: url.hostname,
        port: url.port,
        path: '/__mock/state',
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // 512 KiB in 16 KiB chunks, and never the end of the body
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      for (let i = 0; i < 32; i++) req.write(chunk);
    });
    expect(status).toBe(413);
  });

  it('API bodies past their limit by Content-Length: 413 at once too', async () => {
    const m = await mock();
    const answer = await headersOnly(m.base, [
      'POST /v1/video-generation/generate HTTP/1.1',
      'Content-Type: application/json',
      `Authorization: Bearer ${KEY}`,
      `Content-Length: ${50 * 1024 * 1024}`,
    ]);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(answer).toContain('larger than the 1048576 bytes this operation accepts');
  });
});

describe('JSON bodies dense with objects', () => {
  // the review's worst case: 64 MB of empty objects as a state took the mock past its heap limit (here 2 MB of them;
  // 700,001 entries and the document's 4 objects)
  it('a state of empty objects, or an API body of nested arrays, above 1 MiB: 413 before it is parsed; a real state of that size loads', async () => {
    const m = await mock();
    const junk = `{"format":"mediagen-mock-state","version":1,"state":{"journal":{"entries":[${'{},'.repeat(700_000)}{}],"seq":0}}}`;
    const r = await m.call('PUT', '/__mock/state', { key: null, raw: junk, headers: { 'content-type': 'application/json' } });
    expect(r.status, r.text).toBe(413);
    expect(r.json.code).toBe(TOO_LARGE);
    expect(r.json.message).toMatch(/^request body holds 700005 objects and arrays in \d+ bytes, more than one per 16 bytes/);
    const nested = await m.call('POST', '/v1/images/generation/estimate-credits', {
      raw: `{"model":"image-a-2","x":${'['.repeat(1_200_000)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(nested.status, nested.text).toBe(413);
    // a state document of 2 MB (padded with spaces) is taken
    const doc = (await m.call('GET', '/__mock/state', { key: null })).text;
    const ok = await m.call('PUT', '/__mock/state', { key: null, raw: doc + ' '.repeat(2 * 1024 * 1024), headers: { 'content-type': 'application/json' } });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe('Capacity.admitBody', () => {
  it('judges a body from its headers, reserving only what it admits', () => {
    const c = new Capacity(1000, 10, 500);
    expect(c.admitBody('501', false, 500, true)).toBe('too-large');
    expect(c.bodyBytes).toBe(0);
    expect(c.admitBody(undefined, false, 500, true)).toEqual({ reserved: 0 });
    expect(c.admitBody(undefined, true, 500, true)).toEqual({ reserved: 500 });
    expect(c.admitBody('400', false, 500, true)).toEqual({ reserved: 400 });
    expect(c.admitBody('200', false, 500, true)).toBe('busy');
    expect(c.bodyBytes).toBe(900);
    // a multipart body is judged part by part as it streams: its reservation is its most
    c.releaseBody(900);
    expect(c.admitBody('5000', false, 500, false)).toEqual({ reserved: 500 });
  });
});
