// What Settings → Providers says of a local model's state in this tab: the words and the numbers
// of LocalModelPanel.tsx, kept out of the component so that tests can read them.

import { formatBytes } from '../../core/format.ts';
import type { LocalModelLoad, LocalModelStatus } from '../../../workers/protocol.ts';

export interface LocalModelStatusView {
  /** One sentence or two, for a `role="status"` line. */
  text: string;
  /** A determinate bar while loading: bytes of the file read of the whole. */
  progress?: { value: number; max: number };
  /** The action the panel offers: Load when not loaded, Unload when loaded. */
  action?: 'load' | 'unload';
}

export function localModelStatusView(status: LocalModelStatus, now: number): LocalModelStatusView {
  switch (status.state) {
    case 'unloaded':
      return {
        text: [
          status.note,
          'Not loaded in this tab: it loads on an agent’s first message, or now with Load.',
        ]
          .filter(Boolean)
          .join(' '),
        action: 'load',
      };
    case 'loading':
      return {
        text: `Loading the model… ${loadingProgress(status, now)}`,
        progress: { value: status.read, max: status.total || 1 },
      };
    case 'loaded': {
      const threads = `${status.threads} thread${status.threads === 1 ? '' : 's'}`;
      const loaded = `Loaded in this tab (${threads}), in ${status.loadSeconds.toFixed(1)} s.`;
      const memory = status.memory
        ? ` In memory: about ${formatBytes(status.memory.fileBytes + status.memory.contextBytes)}: ` +
          `the weights (the file, ${formatBytes(status.memory.fileBytes)}) and the context cache ` +
          `for ${status.memory.contextTokens.toLocaleString('en')} tokens ` +
          `(${formatBytes(status.memory.contextBytes)}), estimated from the model’s metadata.`
        : '';
      const context = status.context
        ? ` A request may fill ${status.context.tokens.toLocaleString('en')} tokens` +
          (status.context.own
            ? ` (the model’s own context: ${status.context.own.toLocaleString('en')}).`
            : '.')
        : '';
      return { text: loaded + memory + context, action: 'unload' };
    }
    default: {
      const unknown: never = status;
      throw new Error(`Unknown local model state ${JSON.stringify(unknown)}`);
    }
  }
}

/** How far a load has gone: "45% (1.2 MB of 2.5 MB read), 3 s." */
export function loadingProgress(
  { read, total, since }: Pick<LocalModelLoad, 'read' | 'total' | 'since'>,
  now: number,
): string {
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  const percent = total ? Math.floor((read / total) * 100) : 0;
  return `${percent}% (${formatBytes(read)} of ${formatBytes(total)} read), ${seconds} s.`;
}
