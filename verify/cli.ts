/**
 * The `mediagen-verify` command (docs/guides/verify.md): flags parsed with
 * commander (the keys also from MEDIAGEN_API_KEY and MEDIAGEN_SECOND_API_KEY,
 * kept out of `ps`), progress on stderr, the report on stdout, JUnit XML with
 * --junit (also when the run stopped early). Exit status: 0 every check
 * passed, 1 a violation, 2 a refused configuration or a run that could not
 * finish (the server stopped answering, the time was up).
 */
import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError, formatTable, toJUnit, verify, type VerifyOptions } from './index.ts';

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
    .option('--api-key <key>', 'API key sent as Authorization: Bearer (default: the environment variable MEDIAGEN_API_KEY)')
    .option('--second-api-key <key>', "a key of another account: its reads of the first key's tasks must be refused (default: MEDIAGEN_SECOND_API_KEY)")
    .option('--operations <ids>', 'only these operationIds (comma-separated)', list)
    .option('--tags <names>', 'only these areas (tags, comma-separated), e.g. Video,Image', list)
    .addOption(new Option('--mode <mode>', 'safe: reads, estimates, refused requests; full: also creates tasks').choices(['safe', 'full']).default('safe'))
    .option('--budget <credits>', 'credits full mode may spend, a hard cap (default 1000 on loopback; required beyond it)', int('--budget', 0))
    .option('--allow-unpriced', 'full mode: also send charged creates whose cost no estimate tells beforehand', false)
    .option('--request-timeout <seconds>', 'longest time for one answer, headers and body', int('--request-timeout', 1), 30)
    .option('--max-duration <seconds>', 'longest time for the whole run; then the report of the checks so far', int('--max-duration', 1), 1800)
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
    apiKey: (o.apiKey as string | undefined) ?? process.env.MEDIAGEN_API_KEY ?? '',
    secondApiKey: (o.secondApiKey as string | undefined) ?? (process.env.MEDIAGEN_SECOND_API_KEY || undefined),
    operations: o.operations as string[] | undefined,
    tags: o.tags as string[] | undefined,
    mode: o.mode as 'safe' | 'full',
    budget: o.budget as number | undefined,
    seed: o.seed as number,
    concurrency: o.concurrency as number,
    mock: o.mock as boolean,
    allowUnpriced: o.allowUnpriced as boolean,
    requestTimeoutS: o.requestTimeout as number,
    maxDurationS: o.maxDuration as number,
    onProgress: (line) => process.stderr.write(`${line}\n`),
  };
  try {
    const report = await verify(options);
    process.stdout.write(`${formatTable(report)}\n`);
    if (o.junit) writeFileSync(o.junit as string, toJUnit(report));
    return report.stopped ? 2 : report.ok ? 0 : 1;
  } catch (e) {
    process.stderr.write(`mediagen-verify: ${e instanceof ConfigError ? 'refused: ' : ''}${(e as Error).message}\n`);
    return 2;
  }
}
