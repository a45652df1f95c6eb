/**
 * The proxy's report (GET /__mock/proxy/report, `--check-report FILE`; docs/guides/proxy.md): counts of what was
 * forwarded, checked and answered by the fallback, the violations per rule, and the most recent violations with
 * their request; as JSON (the control API's `ProxyReport`) or as JUnit XML for a CI's test view.
 */
import { PROXY_REPORT_VIOLATIONS, type ProxyReport, type ProxyViolation } from '../../../schemas/control.ts';
import type { Violation } from './check.ts';

/** The request a violation was found in. */
export interface ViolationSite {
  session: string | null;
  method: string;
  path: string;
  operationId: string | null;
  status: number;
}

/** Counts and violations of one proxy, since its start or the last clear. */
export class ProxyTally {
  forwarded = 0;
  checked = 0;
  notChecked = 0;
  fallbacks = 0;
  upstreamErrors = 0;
  private seq = 0;
  private readonly byRule = new Map<string, number>();
  private recent: ProxyViolation[] = [];
  /** Answers checked per operation (a JUnit test case each), media under `(media)`. */
  private readonly perOperation = new Map<string, number>();

  constructor(
    private readonly upstream: string,
    private readonly fallback: 'off' | 'mock',
    /** Wall-clock time as ISO 8601 (the host's clock: the report is about the real upstream). */
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /** Counts one checked answer of `site` and keeps its violations; returns them as the report lists them. */
  checkedAnswer(site: ViolationSite, found: readonly Violation[]): ProxyViolation[] {
    this.checked++;
    const op = site.operationId ?? '(media)';
    this.perOperation.set(op, (this.perOperation.get(op) ?? 0) + 1);
    const out: ProxyViolation[] = [];
    for (const v of found) {
      const row: ProxyViolation = { seq: ++this.seq, at: this.now(), ...site, rule: v.rule, cause: v.cause, detail: v.detail };
      this.byRule.set(v.rule, (this.byRule.get(v.rule) ?? 0) + 1);
      this.recent.push(row);
      out.push(row);
    }
    if (this.recent.length > PROXY_REPORT_VIOLATIONS * 2) this.recent = this.recent.slice(-PROXY_REPORT_VIOLATIONS);
    return out;
  }

  /** The report as the control API answers it. */
  report(): ProxyReport {
    return {
      upstream: this.upstream,
      fallback: this.fallback,
      forwarded: this.forwarded,
      checked: this.checked,
      notChecked: this.notChecked,
      fallbacks: this.fallbacks,
      upstreamErrors: this.upstreamErrors,
      violationCount: this.seq,
      byRule: [...this.byRule].map(([rule, count]) => ({ rule, count })).sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule)),
      violations: this.recent.slice(-PROXY_REPORT_VIOLATIONS),
    };
  }

  /** Answers checked per operation, for the JUnit report. */
  operations(): Map<string, number> {
    return new Map(this.perOperation);
  }

  /** Zeroes the counts and forgets the violations; returns the report as it was. */
  clear(): ProxyReport {
    const before = this.report();
    this.forwarded = this.checked = this.notChecked = this.fallbacks = this.upstreamErrors = this.seq = 0;
    this.byRule.clear();
    this.perOperation.clear();
    this.recent = [];
    return before;
  }
}

const xml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[^\t\n\r\x20-\uFFFD]/gu, '?');

/**
 * The report as JUnit XML: one test suite, one test case per operation whose answers were checked (`<operationId>:
 * answers conform`), failed with every listed violation of it; counts of the unlisted ones in the suite's properties.
 */
export function proxyJUnit(report: ProxyReport, operations: Map<string, number>): string {
  const failuresOf = new Map<string, ProxyViolation[]>();
  for (const v of report.violations) {
    const op = v.operationId ?? '(media)';
    failuresOf.set(op, [...(failuresOf.get(op) ?? []), v]);
  }
  for (const op of failuresOf.keys()) if (!operations.has(op)) operations.set(op, 0);
  const names = [...operations.keys()].sort();
  const failed = names.filter((n) => failuresOf.has(n)).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mediagen-mock proxy" tests="${names.length}" failures="${failed}">`,
    `  <testsuite name="${xml(`contract checks of ${report.upstream}`)}" tests="${names.length}" failures="${failed}" errors="0" skipped="0">`,
    '    <properties>',
    ...(['forwarded', 'checked', 'notChecked', 'fallbacks', 'upstreamErrors', 'violationCount'] as const).map(
      (k) => `      <property name="${k}" value="${report[k]}"/>`,
    ),
    '    </properties>',
  ];
  for (const name of names) {
    const fails = failuresOf.get(name);
    const head = `    <testcase classname="${xml(name)}" name="${xml(`${name}: ${operations.get(name)} answer(s) conform`)}"`;
    if (!fails) {
      lines.push(`${head}/>`);
      continue;
    }
    const text = fails.map((v) => `${v.method} ${v.path} -> ${v.status}: ${v.rule}: ${v.detail}`).join('\n');
    lines.push(
      `${head}>`,
      `      <failure message="${xml(`${fails.length} violation(s): ${fails[0].cause}`)}" type="${xml(fails[0].rule)}">${xml(text)}</failure>`,
      '    </testcase>',
    );
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
