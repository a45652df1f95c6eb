/**
 * The shell walkthroughs of README.md and docs/guides/*.md as test/guides.test.ts
 * runs them: which blocks are walkthroughs, their steps, and the outputs their
 * comments annotate.
 *
 * - A walkthrough block is a ```sh block with at least one command that is not
 *   `npm`, `npx`, `docker` or `podman` (those blocks are commands of the
 *   project, checked for the scripts and commands they name, not run here).
 * - A step is a command (a logical line: `\` continuations joined). The guide's
 *   own `npm start` and a live stream (`curl -N`, which waits for a second
 *   shell) are left out.
 * - An annotation is a step's trailing `# comment`, or the whole-line comments
 *   right after it (no blank line between) when it has none. It claims the
 *   step's output unless it is a remark: it starts with `(` or `...`, or the
 *   step shows no output (redirected to a file or /dev/null). The output,
 *   trimmed, must match the comment whole, or its head: each line up to its
 *   first `: ` or ` (` (what follows explains), a JSON value up to its closing
 *   bracket. `...` and `…` stand for any text; runs of blanks, and blanks
 *   around JSON punctuation, do not count.
 */

/** One command of a walkthrough, with the output its comment claims (if any). */
export interface Step {
  /** The command as pasted, without its comment (physical lines joined by newlines). */
  command: string;
  /** What the output may be (the comment whole, its head), or undefined when the step has no claim. */
  claim?: string[];
  /** The comment as written (a claim or a remark), its lines joined by newlines. */
  comment?: string;
}

/** The ```sh blocks of a Markdown text, in order. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]);
}

/** Index of the `#` that starts a comment in `line` (outside quotes, at the start or after a blank), or -1. */
export function commentStart(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return i;
  }
  return -1;
}

const PROJECT_COMMAND = /^\s*(?:[A-Z_]+=\S*\s+)*(npm|npx|docker|podman)\b/;
/** Steps the walkthrough test leaves out: the guide's own `npm start`, a live stream waiting for another shell. */
const LEFT_OUT = /^\s*(npm start\b|curl\s+-s?N\b)/;

/** The logical lines of a block: [physical lines, trailing comment or undefined]. */
function logicalLines(block: string): { lines: string[]; comment?: string; whole?: string }[] {
  const out: { lines: string[]; comment?: string; whole?: string }[] = [];
  let current: string[] | null = null;
  for (const raw of block.split('\n')) {
    if (current) {
      current.push(raw);
      if (!raw.endsWith('\\')) {
        const last = current[current.length - 1];
        const at = commentStart(last);
        const comment = at >= 0 ? last.slice(at + 1).trim() : undefined;
        if (at >= 0) current[current.length - 1] = last.slice(0, at).trimEnd();
        out.push({ lines: current, comment });
        current = null;
      }
      continue;
    }
    if (/^\s*$/.test(raw)) {
      out.push({ lines: [] });
      continue;
    }
    if (/^\s*#/.test(raw)) {
      out.push({ lines: [], whole: raw.replace(/^\s*#\s?/, '') });
      continue;
    }
    const at = commentStart(raw);
    if (raw.endsWith('\\') && at < 0) {
      current = [raw];
      continue;
    }
    out.push({ lines: [at >= 0 ? raw.slice(0, at).trimEnd() : raw], comment: at >= 0 ? raw.slice(at + 1).trim() : undefined });
  }
  if (current) out.push({ lines: current });
  return out;
}

/** True when a block is a walkthrough (see the file's comment). */
export function isWalkthrough(block: string): boolean {
  return logicalLines(block).some((l) => l.lines.length > 0 && !PROJECT_COMMAND.test(l.lines[0]));
}

/** The head of one line of a comment: a JSON value up to its closing bracket, else up to the first `: ` or ` (`. */
function headOf(line: string): string {
  if (/^[{[]/.test(line)) {
    let depth = 0;
    let quote = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === '"') quote = false;
      } else if (c === '"') quote = true;
      else if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && --depth === 0) return line.slice(0, i + 1);
    }
    return line;
  }
  const cut = /: | \(/.exec(line);
  return cut ? line.slice(0, cut.index) : line;
}

/** What a comment on a step whose output is shown claims the output is (the whole comment, its head), or undefined for a remark. */
export function claimOf(comment: string): string[] | undefined {
  if (/^(\(|\.\.\.|…)/.test(comment)) return undefined;
  const lines = comment.split('\n');
  // a JSON value written over several lines is one value; other lines are lines of output, each with its head
  const head = /^[{[]/.test(comment) ? headOf(lines.join(' ')) : lines.map(headOf).join('\n');
  return head === comment ? [comment] : [comment, head];
}

/** True when a step's output goes to a file or /dev/null (its comment is then a remark). */
function outputHidden(command: string): boolean {
  const last = command.split('|').pop()!;
  return /(^|\s)(-o\s+\S+|>\s*\S+|>\/dev\/null)/.test(last) && !/-o \/dev\/null -w/.test(command);
}

/** The steps of the walkthrough blocks of `markdown`, in order, without the ones left out. */
export function walkthroughSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const block of shellBlocks(markdown).filter(isWalkthrough)) {
    // the step whose output the comment lines that follow annotate (none after a blank line or a commented step)
    let open: Step | undefined;
    let lines: string[] = [];
    const close = () => {
      if (open && lines.length) {
        open.comment = lines.join('\n');
        open.claim = outputHidden(open.command) ? undefined : claimOf(open.comment);
      }
      open = undefined;
      lines = [];
    };
    for (const l of logicalLines(block)) {
      if (l.lines.length === 0) {
        if (l.whole === undefined) close();
        else if (open) lines.push(l.whole);
        continue;
      }
      close();
      const command = l.lines.join('\n');
      if (LEFT_OUT.test(command)) continue;
      const step: Step = { command, comment: l.comment };
      if (l.comment !== undefined && !outputHidden(command) && !/&\s*$/.test(command)) step.claim = claimOf(l.comment);
      steps.push(step);
      if (l.comment === undefined && !/&\s*$/.test(command)) open = step;
    }
    close();
  }
  return steps;
}

/** Text as compared: runs of blanks as one, none around JSON punctuation. */
const normal = (s: string) =>
  s
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/ ?([{}[\],:]) ?/g, '$1');

/** True when `output` matches one of `claims` whole (see the file's comment), `...` and `…` standing for any text. */
export function outputMatches(claims: readonly string[], output: string): boolean {
  return claims.some((claim) => {
    const pattern = normal(claim)
      .split(/\.\.\.|…/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*?');
    return new RegExp(`^${pattern}$`).test(normal(output));
  });
}

/** Marker lines the script prints around the output of claimed step `i`. */
const BEGIN = (i: number) => `@@step-${i}@@`;
const END = (i: number) => `@@/step-${i}@@`;

/**
 * The script of `steps`: each command as pasted; a step with a claim between
 * printed markers, so its output can be read back (see claimedOutputs).
 */
export function scriptOf(steps: readonly Step[]): string {
  return steps.map((s, i) => (s.claim === undefined ? s.command : `printf '\\n${BEGIN(i)}\\n'\n${s.command}\nprintf '\\n${END(i)}\\n'`)).join('\n');
}

/** The output of each claimed step in the output of a scriptOf run (undefined when the run stopped before it). */
export function claimedOutputs(steps: readonly Step[], output: string): Map<number, string | undefined> {
  const out = new Map<number, string | undefined>();
  steps.forEach((s, i) => {
    if (s.claim === undefined) return;
    const a = output.indexOf(`\n${BEGIN(i)}\n`);
    const b = output.indexOf(`\n${END(i)}\n`, a);
    out.set(i, a >= 0 && b >= 0 ? output.slice(a + BEGIN(i).length + 2, b) : undefined);
  });
  return out;
}
