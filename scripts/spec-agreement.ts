/**
 * `npm run spec:agreement`: the request-rule table (test/rule-cases.ts) sent to
 * ajv over spec/openapi.json and to the mock in process; prints how often the
 * spec refuses what the mock refuses for a body rule, and what only the spec
 * refuses. Exit 1 under 95% or when the spec refuses a body the mock accepts.
 */
import { agreement, describeAgreement, runCases } from '../test/rule-agreement.ts';
import { ruleCases } from '../test/rule-cases.ts';

const verdicts = await runCases(ruleCases());
const a = agreement(verdicts);
console.log(describeAgreement(a));
for (const v of verdicts) {
  const accepted = v.mockStatus >= 200 && v.mockStatus < 300;
  if (!accepted && v.ajvValid) console.log(`  spec accepts, mock refuses ${v.mockCode}: ${v.case.op}: ${v.case.rule ?? 'valid'}: ${v.case.name}`);
  if (accepted && !v.ajvValid) console.log(`  spec refuses, mock accepts: ${v.case.op}: ${v.case.name}: ${v.ajvErrors}`);
}
process.exit(a.fraction >= 0.95 && a.ajvOnly === 0 ? 0 : 1);
