/**
 * Provenance: every field, limit, price and error code says where it comes from
 * (docs/architecture.md, "The source documents"). A seed reference names the document and section; an
 * assumption gives a one-line reason because the seed says "not shown".
 */

/** Where a contract fact comes from. Rendered into the spec as `x-provenance`. */
export type Provenance = { source: 'seed'; document: 1 | 2 | 3; section: string } | { source: 'assumed'; reason: string };

/** A fact taken from seed document `document`, section `section`. */
export function fromSeed(document: 1 | 2 | 3, section: string): Provenance {
  return { source: 'seed', document, section };
}

/** A fact the mock chose where the seed says "not shown"; `reason` says why. */
export function assumed(reason: string): Provenance {
  return { source: 'assumed', reason };
}

/** One-line rendering, e.g. `document 1, "Video models"` or `assumed: ...`. */
export function describeProvenance(p: Provenance): string {
  return p.source === 'seed' ? `document ${p.document}, "${p.section}"` : `assumed: ${p.reason}`;
}

/** A choice the mock makes for data that lives in a table (prices, schedules, defaults), listed in docs/assumptions.md. */
export interface TableAssumption {
  /** What is assumed, naming the table or rule in schemas/. */
  subject: string;
  reason: string;
}

/**
 * Schema metadata carrying the provenance in `x-provenance` only: the description stays the field's own text, so
 * a generated SDK's comments read as the service's (docs/assumptions.md lists every assumption).
 */
export function provenanceMeta(p: Provenance, description?: string): Record<string, unknown> {
  return { ...(description ? { description } : {}), 'x-provenance': describeProvenance(p) };
}
