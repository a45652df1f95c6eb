/** The dashboard's clock panel: virtual time, mode, speed, the next event; advance, reset (docs/guides/dashboard.md). */
import { useEffect, useRef, useState } from 'preact/hooks';
import { control, type Ctx } from './api.ts';
import { html, useControl, type Clock, type NextEvent, type Run } from './common.ts';
import { formatDuration, formatTime } from './media.ts';

/** Milliseconds per unit of the chosen advance. */
const UNITS = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 } as const;
type Unit = keyof typeof UNITS;

/** The clock of the session shown; advance it by a preset, a chosen amount or to the next event; reset the session. */
export function ClockPanel(p: { ctx: Ctx; tick: number; run: Run; onError: (e: unknown) => void; onNow: (now: number) => void }) {
  const clock = useControl<Clock>(p.ctx, '/__mock/clock', p.tick, p.onError);
  useEffect(() => {
    if (clock) p.onNow(clock.now);
  }, [clock]);
  const next = useControl<NextEvent>(p.ctx, '/__mock/clock/next', p.tick, p.onError);
  const [last, setLast] = useState('');
  // real mode: the speed as measured between polls since the page last moved the clock
  const sample = useRef<{ now: number; wall: number } | null>(null);
  const [speed, setSpeed] = useState<number | null>(null);
  useEffect(() => {
    if (!clock || clock.mode !== 'real') return;
    const wall = performance.now();
    if (!sample.current) sample.current = { now: clock.now, wall };
    else if (wall - sample.current.wall >= 2000) setSpeed((clock.now - sample.current.now) / (wall - sample.current.wall));
  }, [clock]);
  const advance = (ms: number) =>
    p.run(async () => {
      const r = await control<{ now: number; eventsRun: number }>(p.ctx, 'POST', '/__mock/clock/advance', { ms });
      sample.current = null;
      setLast(`moved ${formatDuration(ms)}, ${r.eventsRun} event${r.eventsRun === 1 ? '' : 's'} ran`);
    });
  const [amount, setAmount] = useState('30');
  const [unit, setUnit] = useState<Unit>('s');
  const chosen = Math.round(Number(amount) * UNITS[unit]);
  const advanceChosen = (e: Event) => {
    e.preventDefault();
    if (Number.isFinite(chosen) && chosen > 0) void advance(chosen);
    else setLast('give a positive amount');
  };
  const [seed, setSeed] = useState('');
  const reset = (e: Event) => {
    e.preventDefault();
    void p.run(async () => {
      const r = await control<{ seed: number; now: number }>(p.ctx, 'POST', '/__mock/reset', seed.trim() ? { seed: Number(seed) } : undefined);
      sample.current = null;
      setLast(`reset: seed ${r.seed}, ${formatTime(r.now)}; accounts, tasks, rules and the journal dropped`);
    });
  };
  const toNext = () =>
    p.run(async () => {
      const n = await control<NextEvent>(p.ctx, 'GET', '/__mock/clock/next');
      if (n.inMs === null) return setLast('nothing is scheduled');
      const r = await control<{ now: number; eventsRun: number }>(p.ctx, 'POST', '/__mock/clock/advance', { ms: n.inMs });
      sample.current = null;
      setLast(`moved ${formatDuration(n.inMs)}, ${r.eventsRun} event${r.eventsRun === 1 ? '' : 's'} ran`);
    });
  return html`<section class="clock" aria-labelledby="clock-h">
    <h2 id="clock-h">Clock</h2>
    <dl>
      <dt>Virtual time</dt>
      <dd data-testid="virtual-time">${clock ? formatTime(clock.now) : '…'}</dd>
      <dt>Mode</dt>
      <dd>${clock?.mode ?? '…'}</dd>
      <dt>Speed</dt>
      <dd>${clock?.mode === 'manual' ? 'moves when advanced' : speed === null ? 'measuring…' : `≈ ×${Number(speed.toPrecision(2))}`}</dd>
      <dt>Next event</dt>
      <dd data-testid="next-event">${!next ? '…' : next.inMs === null ? 'nothing scheduled' : `in ${formatDuration(next.inMs)}`}</dd>
    </dl>
    <div class="buttons">
      <button type="button" onClick=${() => advance(10_000)}>Advance 10 s</button>
      <button type="button" onClick=${() => advance(60_000)}>Advance 1 min</button>
      <button type="button" onClick=${toNext} disabled=${next?.inMs === null}>Advance to next event</button>
    </div>
    <form class="inline" onSubmit=${advanceChosen} aria-label="Advance by a chosen amount">
      <div class="field">
        <label for="advance-amount">Amount</label
        ><input
          id="advance-amount"
          type="number"
          min="0"
          step="any"
          size="6"
          value=${amount}
          onInput=${(e: Event) => setAmount((e.target as HTMLInputElement).value)}
        />
      </div>
      <div class="field">
        <label for="advance-unit">Unit</label
        ><select id="advance-unit" value=${unit} onChange=${(e: Event) => setUnit((e.target as HTMLSelectElement).value as Unit)}>
          ${Object.keys(UNITS).map((u) => html`<option key=${u} value=${u}>${u}</option>`)}
        </select>
      </div>
      <button type="submit">Advance</button>
    </form>
    <form class="inline" onSubmit=${reset} aria-label="Reset this session">
      <div class="field">
        <label for="reset-seed">Seed</label
        ><input
          id="reset-seed"
          type="number"
          min="0"
          step="1"
          size="6"
          value=${seed}
          placeholder="same"
          onInput=${(e: Event) => setSeed((e.target as HTMLInputElement).value)}
        />
      </div>
      <button type="submit">Reset ${p.ctx.session || 'default'}</button>
    </form>
    <p role="status" class="note">${last}</p>
  </section>`;
}
