/**
 * What the dashboard's panels share (docs/guides/dashboard.md): htm bound to
 * Preact, the shapes of the control API's answers (type-only), and reading a
 * control route on every tick.
 */
import { h, type VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htmDefault from 'htm';
import type { z } from '../../schemas/zod.ts';
import type {
  AccountPage as AccountPageSchema,
  ClockState,
  LoginSessionInfo,
  NextEvent as NextEventSchema,
  OAuthUser,
  OperationSummary as OperationSummarySchema,
} from '../../schemas/control.ts';
import { control, type Ctx } from './api.ts';

// htm's typings read as CommonJS under NodeNext; the bundle gets its ES module, whose default export is htm itself
const htm = htmDefault as unknown as { bind(f: typeof h): unknown };
/** Preact elements from tagged templates. */
export const html = htm.bind(h) as (strings: TemplateStringsArray, ...values: unknown[]) => VNode;

// The control API's answers, typed from its schemas (type-only: nothing of Zod reaches the page's bundle).
export type Clock = z.infer<typeof ClockState>;
export type NextEvent = z.infer<typeof NextEventSchema>;
export type OperationSummary = z.infer<typeof OperationSummarySchema>;
export type AccountPage = z.infer<typeof AccountPageSchema>;
export type User = z.infer<typeof OAuthUser>;
export type LoginSession = z.infer<typeof LoginSessionInfo>;

/** A task as the page follows it: its changes of status, and its result once it has ended. */
export interface TaskView {
  taskId: string;
  area: string;
  apiKey: string;
  history: { status: string; at: number }[];
  terminal: boolean;
  lastSeq: number;
}

/** Runs an action of the page: reports its error, refreshes the panels. */
export type Run = (what: () => Promise<unknown>) => Promise<boolean>;

export const items = <T>(x: { items: T[] } | undefined): T[] => x?.items ?? [];

/** GET `path` of the control API whenever `tick` or the context changes; `undefined` until the first answer. */
export function useControl<T>(ctx: Ctx, path: string | null, tick: number, onError: (e: unknown) => void): T | undefined {
  const [data, setData] = useState<T | undefined>(undefined);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    control<T>(ctx, 'GET', path).then(
      (d) => live && setData(d),
      (e) => live && onError(e),
    );
    return () => {
      live = false;
    };
  }, [path, tick, ctx.token, ctx.session]);
  return data;
}
