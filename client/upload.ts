/**
 * Uploads: the multipart/form-data body of an operation (voice cloning, the
 * music uploads, music analysis) from its fields, files given as a File, a
 * Blob or bytes (a Uint8Array, a Node Buffer, an ArrayBuffer). Which fields
 * carry files, and which repeat, comes from the document
 * (client/catalog.generated.ts); the other fields are sent as text (`true`,
 * `42`), as the operations read them. In Node, `fileFromPath` of
 * `mediagen-contract/client/node` gives a File of a path.
 */
import { operations } from './catalog.generated.ts';
import type { FileInput, UploadBody, UploadOperationId } from './types.ts';

/** A Blob of a file input (bytes copied into a Blob; a Blob or File as it is). */
function blobOf(v: FileInput): Blob {
  if (v instanceof Blob) return v;
  if (v instanceof ArrayBuffer) return new Blob([v]);
  return new Blob([new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice()]);
}

/** True for a value a file field takes. */
const isFile = (v: unknown): v is FileInput => v instanceof Blob || v instanceof ArrayBuffer || ArrayBuffer.isView(v);

/**
 * The FormData of `operationId`'s multipart body. A file without a name of its
 * own (bytes, a Blob) is sent under the field's name. Throws a TypeError naming
 * the field when a file field gets something that is not a file, or a field
 * that is not a file gets one.
 */
export function toFormData<Op extends UploadOperationId>(operationId: Op, body: UploadBody<Op>): FormData {
  const op = operations[operationId] as { files?: Record<string, 'one' | 'many'> };
  if (!op?.files) throw new TypeError(`${operationId} takes no multipart body`);
  const form = new FormData();
  for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === undefined) continue;
    const kind = op.files[field];
    if (kind) {
      const list = Array.isArray(value) ? (value as unknown[]) : [value];
      if (kind === 'one' && Array.isArray(value)) throw new TypeError(`${operationId}: ${field} takes one file, not an array`);
      for (const [i, f] of list.entries()) {
        if (!isFile(f)) throw new TypeError(`${operationId}: ${field}${kind === 'many' ? `[${i}]` : ''} must be a File, a Blob or bytes`);
        const name = typeof File !== 'undefined' && f instanceof File ? f.name : kind === 'many' ? `${field}-${i + 1}` : field;
        form.append(field, blobOf(f), name);
      }
    } else {
      if (isFile(value)) throw new TypeError(`${operationId}: ${field} is not a file field`);
      form.append(field, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  return form;
}
