/**
 * The typed client's test harness: a mock (createMock) and a client of it,
 * in-process (the mock's socket-free fetch) or over HTTP (a listening mock and
 * the global fetch), the control API as typed functions over the same
 * transport, and a client clock that is the mock's virtual clock: the client's
 * waits move it (no real waiting, nothing depends on how fast the machine is).
 */
import { createMock, createControlClient, type ControlClient, type InProcessMock } from '../mock/index.ts';
import { createClient, type ClientClock, type MediagenClient, type MediagenClientOptions } from '../client/index.ts';

export const CLIENT_KEY = 'mg_client_secret1';
export type Transport = 'in-process' | 'http';
export const transports: Transport[] = ['in-process', 'http'];

export interface ClientHarness {
  mock: InProcessMock;
  client: MediagenClient;
  control: ControlClient;
  /** Another client of the same mock, transport and clock, with these options. */
  clientWith(options: MediagenClientOptions): MediagenClient;
  /** Every wait the client made through its clock, ms, in order. */
  sleeps: number[];
  close(): Promise<void>;
}

/** A mock (seed 1, manual clock) and a client of it over `transport` (its fetch wrapped by `wrap`); the client's sleep advances the mock's clock. */
export async function clientHarness(
  transport: Transport,
  options: MediagenClientOptions = {},
  /** Wraps the transport's fetch (a gateway in front of the mock, a failing network). */
  wrap: (send: (r: Request) => Promise<Response>) => (r: Request) => Promise<Response> = (send) => send,
): Promise<ClientHarness> {
  const mock = createMock({ seed: 1 });
  const base = transport === 'http' ? await mock.listen() : 'http://localhost:4010';
  const send = wrap(transport === 'http' ? (r: Request) => fetch(r) : (r: Request) => mock.fetch(r));
  const control = transport === 'http' ? createControlClient({ baseUrl: base }) : mock.control;
  const sleeps: number[] = [];
  const clock: ClientClock = {
    now: () => mock.now(),
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      sleeps.push(ms);
      await control.advanceClock({ body: { ms } });
      signal?.throwIfAborted();
    },
  };
  const clientWith = (more: MediagenClientOptions) => createClient({ baseUrl: base, apiKey: CLIENT_KEY, fetch: send, clock, ...more });
  const client = clientWith(options);
  return { mock, client, clientWith, control, sleeps, close: () => (transport === 'http' ? mock.close() : Promise.resolve()) };
}
