/**
 * The Node entry of the client (`mediagen-contract/client/node`): everything of
 * `mediagen-contract/client`, plus `fileFromPath` for the upload fields. Kept
 * apart so the browser entry loads no Node built-in.
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';

export * from './index.ts';

/**
 * A File of the file at `path` (read when sent, not now), named after its base
 * name; `type` is its media type (default none: the service reads the type from
 * the bytes). Rejects with the file system's error (ENOENT...) when it cannot be opened.
 */
export async function fileFromPath(path: string, type?: string): Promise<File> {
  // stat first: its error names the path and the cause (ENOENT, EACCES); openAsBlob's does not
  if (!(await stat(path)).isFile()) throw new TypeError(`${path} is not a file`);
  const blob = await openAsBlob(path, type ? { type } : {});
  return new File([blob], basename(path), { type: blob.type });
}
