// Usage and timing as the chat shows them: short, and only what is known.

import type { ModelTiming, UsageMetadata } from '../../core/event.ts';
import type { SessionUsage } from '../../core/usage.ts';

const count = new Intl.NumberFormat('en');

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/**
 * "gemini-2.5-flash · 812 in · 64 out · first token 420 ms · 1.3 s" for one answer, then
 * "· 73 tokens/s" when the writing (after the first token) took a second or more: how fast a
 * local model runs on this machine is worth knowing, and a shorter stretch gives a noisy rate.
 */
export function answerUsage(
  model: string | undefined,
  usage: UsageMetadata | undefined,
  timing: ModelTiming | undefined,
): string {
  const parts: string[] = [];
  if (model) parts.push(model);
  if (usage?.promptTokenCount !== undefined)
    parts.push(`${count.format(usage.promptTokenCount)} in`);
  if (usage?.candidatesTokenCount !== undefined)
    parts.push(`${count.format(usage.candidatesTokenCount)} out`);
  if (timing) {
    parts.push(`first token ${formatMs(timing.firstTokenMs)}`);
    parts.push(formatMs(timing.totalMs));
    const writingMs = timing.totalMs - timing.firstTokenMs;
    const out = usage?.candidatesTokenCount;
    if (out && writingMs >= 1000)
      parts.push(`${Math.round((out - 1) / (writingMs / 1000))} tokens/s`);
  }
  return parts.join(' · ');
}

/** "4 model calls · 2,310 tokens in · 402 out · 6.1 s" for a session; '' before any call. */
export function sessionUsageText(usage: SessionUsage | undefined): string {
  if (!usage || usage.calls === 0) return '';
  const parts = [`${count.format(usage.calls)} model call${usage.calls === 1 ? '' : 's'}`];
  if (usage.promptTokens > 0 || usage.outputTokens > 0) {
    parts.push(`${count.format(usage.promptTokens)} tokens in`);
    parts.push(`${count.format(usage.outputTokens)} out`);
  }
  parts.push(formatMs(usage.modelMs));
  return parts.join(' · ');
}
