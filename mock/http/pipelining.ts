/**
 * Pipelined requests (HTTP/1.1 pipelining: several requests written on a connection before the first is answered),
 * taken one at a time (docs/architecture.md, "The request path").
 *
 * Node's server parses a pipelined request at once and hands it over while an earlier one of its connection may
 * still be running (reading its body, say); its response waits in a queue without a socket. Handled at once, such a
 * request would run before the one ahead of it: a GET of the balance written after a create would report the
 * balance before the create. RFC 9112 section 9.3.2 allows processing pipelined requests in parallel only when they
 * are all safe. So each connection has a turn: the request holding it runs until its answer is decided (`answered`:
 * the operation has run and its answer is made, or an answer is written), then the next request waiting on the
 * connection takes it. A pipelining client sees what a client sending one request at a time would see, and the
 * answers still go out together (a client that half-closes after writing its pipeline gets every answer decided by
 * then, as before).
 *
 * A response queued without the socket never emits `close` when its connection dies first (Node emits it only on a
 * response that has the socket), so what its request holds (its count in flight, its body bytes) would never be
 * given back: the connection's `close` emits it on such responses instead.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A request waiting for its connection's turn. */
interface Waiting {
  res: ServerResponse;
  go: () => void;
}

/**
 * A connection's turn: the response whose request holds it, the requests waiting for it (oldest first), and the
 * responses queued without the socket (waiting or not), which its `close` closes.
 */
interface Turn {
  holder: ServerResponse | undefined;
  waiting: Waiting[];
  queued: Set<ServerResponse>;
}

const TURN = Symbol('mediagen-mock: the connection turn');
type TurnSocket = Socket & { [TURN]?: Turn };

/**
 * The connection closed: a request still waiting will never run, and a response still queued will never be given
 * the socket, so Node will never emit its `close`; it is emitted here, and its listeners give back what the request
 * held.
 */
function closeQueued(this: TurnSocket): void {
  const turn = this[TURN];
  if (!turn) return;
  turn.waiting = [];
  turn.holder = undefined;
  const queued = [...turn.queued];
  turn.queued.clear();
  for (const res of queued) res.emit('close');
}

/** A queued response was given the socket: Node emits its `close` from now on. */
function socketed(this: ServerResponse): void {
  (this.req?.socket as TurnSocket | undefined)?.[TURN]?.queued.delete(this);
}

/** The turn of `socket`, made on its first request. */
function turnOf(socket: TurnSocket): Turn {
  let turn = socket[TURN];
  if (!turn) {
    turn = socket[TURN] = { holder: undefined, waiting: [], queued: new Set() };
    socket.once('close', closeQueued);
  }
  return turn;
}

/**
 * Takes the connection's turn for `res` when it is free, or when `res` is the connection's first response (it has
 * the socket): false, the caller goes on at once. True when another request of the connection holds the turn: the
 * caller waits, with `wait` (which makes its closures only then). A response without the socket is closed with its
 * connection if Node never gives it the socket.
 */
export function mustWait(req: IncomingMessage, res: ServerResponse): boolean {
  const socket = req.socket as TurnSocket | null;
  if (!socket) return false;
  const turn = turnOf(socket);
  if (!res.socket) {
    turn.queued.add(res);
    res.once('socket', socketed);
  }
  if (res.socket || turn.holder === undefined) {
    turn.holder = res;
    return false;
  }
  return true;
}

/** Queues `res` (a pipelined request for which `mustWait` said true): `go` runs when it has the turn, unless the connection closes first. */
export function wait(req: IncomingMessage, res: ServerResponse, go: () => void): void {
  turnOf(req.socket).waiting.push({ res, go });
}

/**
 * The answer of `res`'s request is decided (its operation ran and its answer is made, or it is being written, or
 * the response closed): the next request waiting on the connection takes the turn, on the next tick (after what
 * decided this one is done). A no-op for a response that does not hold the turn.
 */
export function answered(res: ServerResponse): void {
  const socket = res.req?.socket as TurnSocket | undefined;
  const turn = socket?.[TURN];
  if (!turn || turn.holder !== res) return;
  const next = turn.waiting.shift();
  turn.holder = next?.res;
  if (next) process.nextTick(runNext, socket, next);
}

/** Runs a waiting request that has just taken the turn, unless its connection is gone (its close gave back what it held). */
function runNext(socket: TurnSocket, next: Waiting): void {
  if (!socket.destroyed) next.go();
}
