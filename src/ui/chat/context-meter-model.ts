// The chat header's context meter, the pure part: "3.1k of 4k tokens" for the session's context
// against its model's window (the worker's ContextUse), the share of the window it fills, how
// near the limit it is (its colour), and what the tooltip and the screen reader say.

import type { ContextUse } from '../../models/context-windows.ts';

export interface ContextMeterView {
  /** "3.1k of 4k tokens", or "3.1k tokens" when the window is unknown. */
  text: string;
  /** The screen reader's words: the exact numbers and what happens near the limit. */
  valueText: string;
  /** Where the numbers come from and what the app does about them. */
  title: string;
  /** The bar's fill, 0 to 1 (absent: no window, no bar). */
  fill?: number;
  /** Colour: plenty of room, nearing the compaction point, at or past it. */
  level: 'ok' | 'near' | 'full';
  tokens: number;
  window?: number;
}

const exact = new Intl.NumberFormat('en-US');

/** 950 → "950", 3100 → "3.1k", 4000 → "4k", 128000 → "128k", 1048576 → "1M". */
export function shortTokens(tokens: number): string {
  const [unit, size] = tokens >= 999_950 ? ['M', 1e6] : tokens >= 1000 ? ['k', 1e3] : ['', 1];
  const value = tokens / size;
  const digits = value < 10 ? 1 : 0;
  return `${Number(value.toFixed(digits))}${unit}`;
}

/** The meter of `use`; none before the session holds anything and its window is unknown. */
export function contextMeter(use: ContextUse | undefined): ContextMeterView | undefined {
  if (!use || (use.tokens === 0 && !use.window)) return undefined;
  const { tokens, window, compactAt } = use;
  const how = use.counted
    ? 'The model’s own count of the last request, and what came after'
    : 'Estimated, about four characters a token';
  if (!window) {
    return {
      text: `${shortTokens(tokens)} tokens`,
      valueText: `${exact.format(tokens)} tokens; the model’s window is unknown`,
      title: `${how}. The model’s window is unknown, so long chats are not compacted: set it in Settings → Providers.`,
      level: 'ok',
      tokens,
    };
  }
  const limit = compactAt ?? window.tokens;
  const level = tokens >= limit ? 'full' : tokens >= limit * 0.8 ? 'near' : 'ok';
  const then = compactAt
    ? `past ${exact.format(compactAt)}, earlier messages are summarised for the model`
    : 'long chats are not compacted for this agent';
  return {
    text: `${shortTokens(tokens)} of ${shortTokens(window.tokens)} tokens`,
    valueText: `${exact.format(tokens)} of ${exact.format(window.tokens)} tokens; ${then}`,
    title: `${how}. The window: ${windowSource[window.source]}; ${then}.`,
    fill: Math.min(1, tokens / window.tokens),
    level,
    tokens,
    window: window.tokens,
  };
}

const windowSource: Record<NonNullable<ContextUse['window']>['source'], string> = {
  set: 'as set in Settings → Providers',
  loaded: 'the local model’s context as loaded',
  ollama: 'Ollama’s default (set the provider’s window if the server uses another)',
  known: 'the model’s known window',
};
