import type { ComponentChildren } from 'preact';
import { clip, TITLE_CHARS } from '../common/preview.ts';
import type { ContextUse } from '../../models/context-windows.ts';
import { ContextMeter } from '../chat/ContextMeter.tsx';

interface Props {
  /** The open session's title (none open: the app's name). */
  title: string | undefined;
  /** What the session's model calls cost so far, if any. */
  usageText: string;
  /** The session's context against its model's window (the meter). */
  context?: ContextUse | undefined;
  /** A flow session shows its chat or its checkpoints. */
  flow: boolean;
  checkpointsOpen: boolean;
  onCheckpoints: (open: boolean) => void;
  /** Share and export (src/ui/export/ExportMenu.tsx), for a session in this browser. */
  share?: ComponentChildren;
}

/**
 * The open session's heading, what it cost, its context meter, Share, and (for a flow) the
 * Chat / Checkpoints switch.
 */
export function SessionBar({
  title,
  usageText,
  context,
  flow,
  checkpointsOpen,
  onCheckpoints,
  share,
}: Props) {
  return (
    <div class="session-bar">
      <h1 class="session-heading">{title !== undefined ? clip(title, TITLE_CHARS) : 'Trellis'}</h1>
      {usageText && (
        <p class="session-usage" title="Counted over every answer, rewound ones too">
          {usageText}
        </p>
      )}
      <ContextMeter use={context} />
      {share}
      {flow && (
        <div class="view-switch" role="group" aria-label="View">
          <button
            type="button"
            aria-pressed={!checkpointsOpen}
            onClick={() => onCheckpoints(false)}
          >
            Chat
          </button>
          <button type="button" aria-pressed={checkpointsOpen} onClick={() => onCheckpoints(true)}>
            Checkpoints
          </button>
        </div>
      )}
    </div>
  );
}
