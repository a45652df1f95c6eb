/**
 * The `mediagen-verify` command (docs/guides/verify.md): flags parsed with
 * commander, progress per area on stderr, the summary table on stdout, JUnit
 * XML with --junit, exit status 1 on any violation and 2 on a refused
 * configuration or an unreachable server.
 */
import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { formatTable, toJUnit, verify, type VerifyOptions } from './index.ts';

const int = (name: string, min: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
  return n;
};
const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Parses `argv` (process.argv shape), runs the checks and returns the exit status. */
export async function main(argv: string[] = process.argv): Promise<number> {
  const program = new Command('mediagen-verify')
    .description('Check a running implementation of the Media Generation Service against the emitted contract (spec/openapi.json).')
    .requiredOption('--base-url <url>', 'the server, e.g. http://127.0.0.1:4010')
    .requiredOption('--api-key <key>', 'API key sent as Authorization: Bearer')
    .option('--second-api-key <key>', "a key of another account: its reads of the first key's tasks must be refused")
    .option('--operations <ids>', 'only these operationIds (comma-separated)', list)
    .option('--tags <names>', 'only these areas (tags, comma-separated), e.g. Video,Image', list)
    .addOption(new Option('--mode <mode>', 'safe: reads, estimates, refused requests; full: also creates tasks').choices(['safe', 'full']).default('safe'))
    .option('--budget <credits>', 'credits full mode may spend (default 1000 on loopback; required beyond it)', int('--budget', 0))
    .option('--seed <n>', 'varies invented values', int('--seed', 0), 1)
    .option('--concurrency <n>', 'requests in flight at once', int('--concurrency', 1), 4)
    .option('--junit <file>', 'write JUnit XML')
    .option('--mock', 'the server is mediagen-mock: move its clock instead of waiting (loopback only)', false)
    .exitOverride();
  let o: Record<string, unknown>;
  try {
    o = program.parse(argv).opts();
  } catch (e) {
    return (e as { exitCode?: number }).exitCode === 0 ? 0 : 2;
  }
  const options: VerifyOptions = {
    baseUrl: o.baseUrl as string,
    apiKey: o.apiKey as string,
    secondApiKey: o.secondApiKey as string | undefined,
    operations: o.operations as string[] | undefined,
    tags: o.tags as string[] | undefined,
    mode: o.mode as 'safe' | 'full',
    budget: o.budget as number | undefined,
    seed: o.seed as number,
    concurrency: o.concurrency as number,
    mock: o.mock as boolean,
    onProgress: (line) => process.stderr.write(`${line}\n`),
  };
  try {
    const report = await verify(options);
    process.stdout.write(`${formatTable(report)}\n`);
    if (o.junit) writeFileSync(o.junit as string, toJUnit(report));
    return report.ok ? 0 : 1;
  } catch (e) {
    process.stderr.write(`mediagen-verify: ${(e as Error).message}\n`);
    return 2;
  }
}
