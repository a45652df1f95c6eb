/**
 * State files (docs/architecture.md, "The control API"): the CLI's --state
 * FILE and POST /__mock/state/save read and write the document of
 * mock/services/saved-state.ts. A file is validated in full before anything
 * is replaced (the file on disk is left as it was when it is refused), and
 * written atomically: a temporary file beside the target, then a rename.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { MockState } from '../../schemas/control.ts';
import type { Engine } from '../engine/engine.ts';
import { parseState, stateOf } from '../services/saved-state.ts';

export { loadState, parseState, stateOf } from '../services/saved-state.ts';

/** Reads and parses a state file. Throws an Error whose message says what is wrong with the file (and that nothing was loaded). */
export function readStateFile(path: string): MockState {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path} is not JSON: ${(e as Error).message}`, { cause: e });
  }
  try {
    return parseState(value);
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** Writes the engine's state to `path` atomically (temporary file, then rename). Returns the bytes written. */
export function writeStateFile(path: string, engine: Engine): number {
  const text = `${JSON.stringify(stateOf(engine))}\n`;
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return Buffer.byteLength(text);
}
