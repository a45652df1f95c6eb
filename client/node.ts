/**
 * The Node entry of the client (`mediagen-contract/client/node`): everything of
 * `mediagen-contract/client`, plus `fileFromPath` for the upload fields. Kept
 * apart so the browser entry loads no Node built-in.
 */
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';

export * from './index.ts';

/**
 * A File of the file at `path` (read when sent, not now), named after its base
 * name; `type` is its media type (default none: the service reads the type from
 * the bytes). Rejects with the file system's error (ENOENT...) when it cannot be opened.
 */
export async function fileFromPath(path: string, type?: string): Promise<File> {
  const blob = await openAsBlob(path, type ? { type } : {});
  return new File([blob], basename(path), { type: blob.type });
}
