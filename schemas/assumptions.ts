/**
 * Table-level assumptions: choices the mock makes where the seeds say "not
 * shown", for data that lives in tables rather than in a single field (prices,
 * schedules, defaults). Field-level assumptions carry `x-provenance` in the
 * spec; both are listed in docs/assumptions.md.
 */
import { imageTableAssumptions } from './image.ts';

export interface TableAssumption {
  /** What is assumed, naming the table or rule in schemas/. */
  subject: string;
  reason: string;
}

export const tableAssumptions: TableAssumption[] = [
  { subject: 'video prices: `sharedVideoPrices`, `videoInputFactor`, `family5PricePerSecond`, `family5CapabilityFactor`, `family5ModelFactor` (schemas/video.ts)', reason: 'document 1 says video credits are charged at creation and refunded on failure but shows no price' },
  { subject: 'video estimate units: tokens = credits x 1000, estimatedCostUsd = credits x 0.01 (`videoEstimateUnits`)', reason: 'document 1 says credits are internal and not returned by the estimate; the estimate must match what creation charges' },
  { subject: 'video lifecycle schedule: `videoSchedule` (generating, then uploading, per model and duration)', reason: 'document 1 shows only that a create call returns generating' },
  { subject: 'a forced video failure happens when generating would have ended; the refund is in full', reason: 'document 1: "Transitions: not shown" beyond failure refunding credits' },
  { subject: 'family3-h3 default resolution 768p', reason: 'the shared default 720p is not a family3-h3 resolution' },
  { subject: 'family3-h3 image-to-video reports ratio "adaptive"', reason: 'document 1 says family3-h3 ignores ratio for image-to-video; the ratio then follows the first frame' },
  { subject: 'an image_url item without role counts as reference_image; at most one first_frame and one last_frame', reason: 'document 1 does not say what a role-less image means' },
  { subject: 'request bodies ignore unknown fields; responses never carry fields outside the schema', reason: 'document 1 does not say whether unknown request fields are rejected' },
  { subject: 'the shared get/list endpoints answer with the shared codes (31005, 31006) for every family; family5 codes 32001 and 32005 answer for sourceTaskId', reason: 'document 1 numbers only the family5 codes and says task read is shared' },
  { subject: 'a new key\'s account: 10000 credits, plan paid, everPaid true, freeUsages {}', reason: 'the seeds show no account defaults' },
  { subject: 'API key prefix "mg"', reason: 'document 1 says keys have a fixed prefix but does not show it' },
  { subject: 'rate-limit window counts every generate request that passes auth, including ones that then fail validation', reason: 'document 1 gives the limit (5 per minute per user) but not what counts' },
  ...imageTableAssumptions,
];
