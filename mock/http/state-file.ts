/**
 * State files (docs/architecture.md, "The control API"): the CLI's --state
 * FILE and POST /__mock/state/save read and write the document of
 * mock/services/saved-state.ts. A file is validated in full before anything
 * is replaced (the file on disk is left as it was when it is refused), and
 * written atomically: a temporary file in the target's directory, of an
 * unpredictable name, created exclusively (a file or a symbolic link planted
 * at that name is never followed nor overwritten), flushed to disk, then
 * renamed over the target. At start the CLI checks that it can write in that
 * directory (`stateLocationProblem`); a save that fails later answers
 * STATE_SAVE_FAILED (10020) and the state stays in memory.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { MockState } from '../../schemas/control.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import { parseState, stateJson } from '../services/saved-state.ts';
import { readJsonFile } from './json-file.ts';

export { loadState, parseState, stateOf } from '../services/saved-state.ts';

/** Reads and parses a state file. Throws an Error whose message says what is wrong with the file (and that nothing was loaded). */
export function readStateFile(path: string): MockState {
  const value = readJsonFile(path);
  try {
    return parseState(value);
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** The uid the container image runs as (Dockerfile, decisions/0023-container-image.md). */
const IMAGE_UID = 10001;

/** `e`'s code and message, as a log line shows them. */
const reason = (e: unknown) => {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${(e as Error).message}` : String((e as Error)?.message ?? e);
};

/** Creates `file` exclusively (never through an existing file or link), writes `text`, flushes it to disk. Removes it when that fails. */
function writeNew(file: string, text: string): void {
  const fd = openSync(file, 'wx');
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw e;
  }
  closeSync(fd);
}

/** A new temporary name for a save of `path`: in its directory, with 12 random bytes (24 hex digits) no one can predict. */
export function tempNameFor(path: string): string {
  return join(dirname(resolve(path)), `.${basename(path)}.${randomBytes(12).toString('hex')}.tmp`);
}

/**
 * Writes the engine's state to `path` atomically: a temporary file (`tmp`,
 * default a new `tempNameFor(path)`) created exclusively and flushed, then
 * renamed over `path` (and the directory flushed, where the system allows).
 * Returns the bytes written. Throws the file system's error (`path` left as it
 * was; EEXIST when something already has the temporary name).
 */
export function writeStateFile(path: string, engine: Engine, tmp: string = tempNameFor(path)): number {
  const text = `${stateJson(engine)}\n`; // one pass over the state, no copy built as objects first
  const dir = dirname(resolve(path));
  writeNew(tmp, text);
  try {
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  try {
    const d = openSync(dir, 'r');
    try {
      fsyncSync(d);
    } finally {
      closeSync(d);
    }
  } catch {
    // a directory cannot be flushed on every system; the rename is done
  }
  return Buffer.byteLength(text);
}

/**
 * writeStateFile for POST /__mock/state/save: a failure is the client's to
 * see, not a mock bug. Errors: STATE_SAVE_FAILED (HTTP 507) with the file
 * system's reason; the state stays in memory (and is saved again at shutdown).
 */
export function saveStateFile(path: string, engine: Engine): { file: string; bytes: number } {
  try {
    return { file: path, bytes: writeStateFile(path, engine) };
  } catch (e) {
    throw new ApiError(
      'STATE_SAVE_FAILED',
      `the state could not be written to ${path} (${reason(e)}); it stays in memory and is saved again at shutdown: make ${dirname(resolve(path))} writable by the mock`,
    );
  }
}

/**
 * Why the mock could not save its state at `path`, checked at start by
 * creating and removing a probe file in its directory (and `path` itself
 * must not be a directory); undefined when it can. The message says what to
 * do, for a container too (its image runs as uid 10001).
 */
export function stateLocationProblem(path: string): string | undefined {
  const dir = dirname(resolve(path));
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
      return `${path} is a directory; give the path of a file (for example ${join(path, 'state.json')})`;
    const probe = join(dir, `.mediagen-mock-probe-${randomBytes(12).toString('hex')}`);
    writeNew(probe, '');
    rmSync(probe);
    return undefined;
  } catch (e) {
    const uid = process.getuid?.();
    return (
      `the mock cannot write in ${dir} (${reason(e)}), where it saves the state at shutdown and on POST /__mock/state/save.\n` +
      `  Give that directory to the user the mock runs as${uid === undefined ? '' : ` (uid ${uid})`}, for example: mkdir -p ${dir} && chown ${uid ?? '$(id -u)'} ${dir}\n` +
      `  In a container (the image runs as uid ${IMAGE_UID}), the mounted directory must be writable by uid ${IMAGE_UID}: on the host, sudo chown ${IMAGE_UID} <directory>; with podman, add :U to the volume (-v "$PWD/state:/data:U")`
    );
  }
}
