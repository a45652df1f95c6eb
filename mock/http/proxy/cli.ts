/**
 * The proxy as `mediagen-mock --upstream URL` starts it (docs/guides/proxy.md): each violation printed as it is
 * found (unless --quiet), and the report written to `--check-report FILE` (JSON, or JUnit XML when the name ends in
 * .xml) every 5 s when it changed and at shutdown.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { createProxy, type Proxy, type ProxyOptions } from './forward.ts';
import { proxyJUnit } from './report.ts';

/** What the command gives the proxy. */
export interface ProxyCliOptions {
  upstream: string;
  fallback: 'off' | 'mock';
  timeoutMs: number;
  checkReport?: string;
  quiet: boolean;
  /** Called for each exchange (a recorder: see ProxyExchange). */
  onExchange?: ProxyOptions['onExchange'];
}

/** Writes the report of `proxy` to `file`: JUnit XML when its name ends in .xml, else JSON (through a temporary file, renamed). */
export function writeCheckReport(proxy: Proxy, file: string): void {
  const report = proxy.report();
  const text = /\.xml$/i.test(file) ? proxyJUnit(report, proxy.operations()) : `${JSON.stringify(report, null, 2)}\n`;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** Creates the proxy of the command; `stop` writes the report a last time. */
export function startProxy(o: ProxyCliOptions): { proxy: Proxy; banner: string; stop(): void } {
  const proxy = createProxy({
    upstream: o.upstream,
    fallback: o.fallback,
    timeoutMs: o.timeoutMs,
    onExchange: o.onExchange,
    onViolation: o.quiet ? undefined : (v) => console.error(`CONTRACT ${v.method} ${v.path} -> ${v.status}: ${v.rule}: ${v.detail}`),
  });
  let written = -1;
  const write = () => {
    if (!o.checkReport) return;
    const r = proxy.report();
    const stamp = r.checked + r.fallbacks + r.upstreamErrors + r.violationCount;
    if (stamp === written) return;
    try {
      writeCheckReport(proxy, o.checkReport);
      written = stamp;
    } catch (e) {
      console.error(`mediagen-mock: --check-report ${o.checkReport}: ${(e as Error).message}`);
    }
  };
  if (o.checkReport) {
    write();
    setInterval(write, 5000).unref();
  }
  return {
    proxy,
    banner: `${o.upstream} (fallback ${o.fallback}; answers checked against the contract: GET /__mock/proxy/report${o.checkReport ? `, ${o.checkReport}` : ''})`,
    stop() {
      written = -1;
      write();
      const r = proxy.report();
      if (!o.quiet) console.log(`proxy: ${r.forwarded} forwarded, ${r.checked} checked, ${r.violationCount} violation(s), ${r.fallbacks} answered by the mock`);
    },
  };
}
