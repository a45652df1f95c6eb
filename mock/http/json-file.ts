/**
 * A JSON file read for the mock's own files (`--state`, `--replay`): its text parsed, or an Error naming the file and
 * what is wrong with it (it cannot be read, or it is not JSON). What the value must be is the caller's to check.
 */
import { readFileSync } from 'node:fs';

/** The parsed JSON value of the file at `path`. Throws an Error "cannot read <path>: ..." or "<path> is not JSON: ...". */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`${path} is not JSON: ${(e as Error).message}`, { cause: e });
  }
}
