/**
 * The run's spending (docs/guides/verify.md, "Spending"): the balance
 * (GET /v1/user/subscription) is read before anything else and after
 * everything, and the report's spend is that measured change. Full mode:
 * before every charged create its cost comes from the contract's estimate
 * operation, and the create is sent only when the measured spend plus that
 * cost stays within the budget (a hard cap); a create whose cost cannot be
 * known beforehand is not sent unless allowed (`allowUnpriced`), and charged
 * work stops when the balance cannot be read. Safe mode: any spend is a
 * violation, and nothing that could create is sent after it.
 */
import type { SpecOperation } from './document.ts';
import { dataOf, type Run } from './run.ts';

/** The balance as the run reads it, and what may still be created. */
export class Credits {
  /** The first balance read; undefined when it could not be read. */
  before?: number;
  /** The newest balance read. */
  last?: number;
  /** Why nothing that could create may be sent any more (safe mode's spend, an unreadable balance, an unvalidated charged request). */
  stopCreating?: string;

  constructor(
    private readonly run: Run,
    private readonly balanceOp: SpecOperation | undefined,
  ) {}

  /** Reads the balance (an answer check of its own); undefined when it cannot be read. */
  async read(run: Run, label: string): Promise<number | undefined> {
    if (!this.balanceOp) return undefined;
    const a = await run.call(this.balanceOp, this.balanceOp.path, {}, `balance ${label}`);
    const b = dataOf(a)?.balance;
    if (typeof b !== 'number' || !Number.isFinite(b)) {
      this.stopCreating ??= `the balance cannot be read (GET ${this.balanceOp.path} answered ${a.status} ${a.contentType || a.error || ''}): charged work stopped`;
      return undefined;
    }
    this.last = b;
    return b;
  }

  /** The measured spend so far (undefined while the balance is unknown). */
  spent(): number | undefined {
    return this.before !== undefined && this.last !== undefined ? this.before - this.last : undefined;
  }

  /** The first read: the balance must be readable (a check on the balance operation). */
  async start(): Promise<void> {
    if (!this.balanceOp) {
      this.stopCreating = 'the document has no balance operation (getSubscription): charged work is not sent';
      return;
    }
    this.before = await this.read(this.run, 'before the run');
    this.run.record(
      this.balanceOp,
      'credits: balance readable before the run',
      this.before === undefined
        ? { violation: 'balance readable', evidence: { request: `GET ${this.balanceOp.path}`, answer: '', detail: this.stopCreating ?? '' } }
        : null,
    );
  }

  /**
   * Before a create costing `cost` credits (undefined: not known
   * beforehand): the reason not to send it, or undefined to send it. Reads
   * the balance. A create the contract does not charge (`charged` false) is
   * sent in either mode, the budget aside, until something stops creating.
   */
  async admit(run: Run, cost: number | undefined, charged = true): Promise<string | undefined> {
    const { mode, budget } = run.s;
    if (!charged) {
      if (this.stopCreating) return this.stopCreating;
      await this.read(run, 'before a free create');
      return undefined;
    }
    if (mode === 'safe') return 'safe mode creates nothing';
    if (this.stopCreating) return this.stopCreating;
    if (cost === undefined && !run.s.options.allowUnpriced)
      return 'its cost is not known beforehand (no estimate operation in the contract): --allow-unpriced sends it';
    const now = await this.read(run, 'before a create');
    if (now === undefined || this.before === undefined) return this.stopCreating ?? 'the balance cannot be read';
    const spent = this.before - now;
    if (cost !== undefined && spent + cost > budget) return `${cost} credits would pass the budget (${spent} of ${budget} spent)`;
    if (spent >= budget) return `the budget of ${budget} credits is spent (${spent})`;
    return undefined;
  }

  /**
   * After requests to `op` that must not have created anything (the refused
   * bodies of a charged operation), one of them accepted: nothing more that
   * could create is sent, and the spend so far is measured; in safe mode
   * any spend is a violation recorded on `op`.
   */
  async accepted(run: Run, op: SpecOperation): Promise<void> {
    this.stopCreating ??= `${op.operationId} accepted a request the contract refuses (it may have created a task of unknown cost): nothing more that could create is sent`;
    await this.read(run, `after ${op.operationId} accepted a refused request`);
  }

  /** After an area: in safe mode a spend stops everything that could create (in full mode `admit` keeps the budget). */
  async checkpoint(run: Run, area: string): Promise<void> {
    if (!this.balanceOp || this.before === undefined) return;
    await this.read(run, `after ${area}`);
    const spent = this.spent();
    if (spent === undefined) return;
    if (run.s.mode === 'safe' && spent > 0) this.stopCreating ??= `safe mode spent ${spent} credits by ${area}: nothing more that could create is sent`;
  }

  /** The last read: the measured spend; in safe mode it must be 0. */
  async finish(): Promise<void> {
    if (!this.balanceOp) return;
    const after = await this.read(this.run, 'after the run');
    const spent = this.spent();
    if (this.run.s.mode === 'safe') {
      const verdict =
        after === undefined || this.before === undefined
          ? { skip: 'the balance could not be read' }
          : spent! > 0
            ? {
                violation: 'safe mode spends nothing',
                evidence: {
                  request: '(the whole run)',
                  answer: `balance ${this.before} -> ${after}`,
                  detail: `safe mode sends no valid create, yet ${spent} credits were spent`,
                },
              }
            : null;
      this.run.record(this.balanceOp, 'credits: safe mode spends nothing', verdict);
    } else if (spent !== undefined && spent > this.run.s.budget) {
      this.run.record(this.balanceOp, 'credits: within the budget', {
        violation: 'budget kept',
        evidence: {
          request: '(the whole run)',
          answer: `balance ${this.before} -> ${after}`,
          detail: `${spent} credits spent, the budget is ${this.run.s.budget}`,
        },
      });
    } else this.run.record(this.balanceOp, 'credits: within the budget', spent === undefined ? { skip: 'the balance could not be read' } : null);
  }
}
