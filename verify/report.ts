/**
 * The report (docs/guides/verify.md, "Reading the report"): a row per
 * operation checked, the coverage of every operation of the document (its
 * checks, or the reason none ran), failures grouped by root cause (a count
 * and one example), the measured spend; as text and as JUnit XML (a testsuite
 * per area, a uniquely named testcase per check, with its time).
 */
import { clip } from './answers.ts';
import type { SpecOperation } from './document.ts';
import type { CheckResult, CoverageRow, FailureGroup, SummaryRow, VerifyReport } from './types.ts';

/** Gives repeated `operationId: rule` names a ` #2`, ` #3` ... in order, so every check has a name of its own. */
export function uniqueNames(checks: CheckResult[]): void {
  const seen = new Map<string, number>();
  for (const c of checks) {
    const key = `${c.operationId}: ${c.rule}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n > 1) c.rule = `${c.rule} #${n}`;
  }
}

/** Summarizes `checks` per operation. */
export function summarize(checks: CheckResult[]): SummaryRow[] {
  const rows = new Map<string, SummaryRow>();
  for (const c of checks) {
    let r = rows.get(c.operationId);
    if (!r) rows.set(c.operationId, (r = { operationId: c.operationId, tag: c.tag, checks: 0, passed: 0, failed: 0, skipped: 0, errors: 0 }));
    r.checks++;
    if (c.outcome === 'error') r.errors++;
    else r[c.outcome]++;
    if (c.outcome === 'failed' && !r.firstFailure) r.firstFailure = c;
  }
  return [...rows.values()];
}

/** Every operation of the document: its checks, or why none ran (`unselected` gives the reason for operations left out by the options). */
export function coverage(
  all: SpecOperation[],
  rows: SummaryRow[],
  checks: CheckResult[],
  unselected: (op: SpecOperation) => string | undefined,
): CoverageRow[] {
  const byOp = new Map(rows.map((r) => [r.operationId, r]));
  return all.map((op) => {
    const r = byOp.get(op.operationId);
    const row: CoverageRow = {
      operationId: op.operationId,
      tag: op.tag,
      checks: r?.checks ?? 0,
      passed: r?.passed ?? 0,
      failed: r?.failed ?? 0,
      skipped: r?.skipped ?? 0,
      errors: r?.errors ?? 0,
    };
    if (!r) row.reason = unselected(op) ?? 'no check applies to it';
    else if (!row.passed && !row.failed) {
      const c = checks.find((x) => x.operationId === op.operationId && x.reason);
      row.reason = c?.reason ?? 'every check skipped';
    }
    return row;
  });
}

/** Failures grouped by root cause, the largest group first. */
export function groupCauses(checks: CheckResult[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const c of checks) {
    if (c.outcome !== 'failed') continue;
    const cause = c.cause ?? c.violation ?? c.rule;
    const g = groups.get(cause);
    if (g) g.count++;
    else groups.set(cause, { cause, count: 1, example: c });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

const table = (head: string[], lines: string[][]): string[] => {
  const last = head.length - 1;
  const widths = head.slice(0, last).map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (l: string[]) => [...l.slice(0, last).map((c, i) => c.padEnd(widths[i])), l[last]].join('  ').trimEnd();
  return [fmt(head), ...lines.map(fmt)];
};

const failureText = (c: CheckResult) =>
  `${c.rule} (${c.violation}): ${c.evidence?.detail} | request: ${c.evidence?.request} | answer: ${clip(c.evidence?.answer ?? '', 160)}`;

/** The total line: checks by outcome, the measured spend, retries and polls, the time. */
export function totals(report: VerifyReport): string {
  const n = (o: CheckResult['outcome']) => report.checks.filter((c) => c.outcome === o).length;
  const spent =
    report.creditsSpent === undefined
      ? 'credits spent unknown (the balance could not be read)'
      : `${report.creditsSpent} credits spent (balance ${report.balanceBefore} -> ${report.balanceAfter}${report.mode === 'full' ? `, budget ${report.budget}` : ''})`;
  return `${report.checks.length} checks: ${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped, ${n('error')} not run; ${spent}; ${report.retries} retries after 429, ${report.polls} polls; ${report.durationMs} ms (${report.mode} mode)`;
}

/** The report as text: the operations checked, the failures by root cause, the coverage of the document, the totals. */
export function formatTable(report: VerifyReport): string {
  const rows = table(
    ['operation', 'checks', 'passed', 'failed', 'skipped', 'not run', 'first failure'],
    report.rows.map((r) => [
      r.operationId,
      String(r.checks),
      String(r.passed),
      String(r.failed),
      String(r.skipped),
      String(r.errors),
      r.firstFailure ? failureText(r.firstFailure) : '',
    ]),
  );
  const out = [...rows];
  if (report.causes.length) {
    out.push('', 'Failures by root cause:');
    for (const g of report.causes) out.push(`  ${g.count} x ${g.cause} -- e.g. ${g.example.operationId}: ${failureText(g.example)}`);
  }
  const uncovered = report.coverage.filter((c) => c.reason);
  const covered = report.coverage.length - uncovered.length;
  out.push('', `Coverage: ${covered} of ${report.coverage.length} operations of the document checked${uncovered.length ? '; the others:' : ''}`);
  const unselected = uncovered.filter((c) => c.reason!.startsWith('not selected'));
  for (const c of uncovered) if (!unselected.includes(c)) out.push(`  ${c.operationId} (${c.tag}): ${c.reason}`);
  if (unselected.length) out.push(`  ${unselected.length} operations ${unselected[0].reason}`);
  if (report.stopped) out.push('', `STOPPED: ${report.stopped}. The checks not run are listed as errors.`);
  out.push('', totals(report));
  return out.join('\n');
}

const xml = (s: string) =>
  // eslint-disable-next-line no-control-regex
  s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '?');

/** The report as JUnit XML: a testsuite per tag, a testcase per check (`operationId: rule`, unique), its time in seconds. */
export function toJUnit(report: VerifyReport): string {
  const tags = [...new Set(report.checks.map((c) => c.tag))];
  const suites = tags.map((tag) => {
    const cs = report.checks.filter((c) => c.tag === tag);
    const cases = cs.map((c) => {
      const inner =
        c.outcome === 'failed'
          ? `<failure message="${xml(`${c.violation}: ${c.evidence?.detail ?? ''}`)}" type="${xml(c.violation ?? '')}">${xml(`request: ${c.evidence?.request}\nanswer: ${c.evidence?.answer}\nrule: ${c.rule}\ncause: ${c.cause}`)}</failure>`
          : c.outcome === 'skipped'
            ? `<skipped message="${xml(c.reason ?? '')}"/>`
            : c.outcome === 'error'
              ? `<error message="${xml(c.reason ?? 'not run')}" type="not run"/>`
              : '';
      return `    <testcase classname="${xml(tag)}" name="${xml(`${c.operationId}: ${c.rule}`)}" time="${(c.durationMs / 1000).toFixed(3)}">${inner}</testcase>`;
    });
    const count = (o: CheckResult['outcome']) => cs.filter((c) => c.outcome === o).length;
    const time = cs.reduce((t, c) => t + c.durationMs, 0) / 1000;
    return `  <testsuite name="${xml(tag)}" tests="${cs.length}" failures="${count('failed')}" errors="${count('error')}" skipped="${count('skipped')}" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const count = (o: CheckResult['outcome']) => report.checks.filter((c) => c.outcome === o).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mediagen-verify" tests="${report.checks.length}" failures="${count('failed')}" errors="${count('error')}" time="${report.durationMs / 1000}">\n${suites.join('\n')}\n</testsuites>\n`;
}
