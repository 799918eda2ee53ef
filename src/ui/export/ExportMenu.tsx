import { useRef, useState } from 'preact/hooks';
import type { ExportRequest, ExportTurnChoice } from '../../../workers/protocol.ts';
import { EXPORT_FORMATS } from './export-formats.ts';
import { ExportRange } from './ExportRange.tsx';

interface Props {
  sessionId: string;
  /** Renders and downloads the file (the workbench says what went wrong). */
  onExport: (sessionId: string, request: ExportRequest) => void;
  /** The active conversation's turns, for a range (undefined: it could not be read). */
  loadTurns: (sessionId: string) => Promise<ExportTurnChoice[] | undefined>;
}

/**
 * The session bar's Share: the open session as a standalone page, as Markdown or as a session
 * file, or some of its turns (the range form). A disclosure (a button with aria-expanded and
 * plain buttons under it), closed by Escape, by a choice or by the focus leaving it.
 */
export function ExportMenu({ sessionId, onExport, loadTurns }: Props) {
  const [open, setOpen] = useState(false);
  const [turns, setTurns] = useState<ExportTurnChoice[]>();
  const button = useRef<HTMLButtonElement>(null);
  const choose = (request: ExportRequest) => {
    setOpen(false);
    onExport(sessionId, request);
  };
  return (
    <div
      class="export-menu"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open || event.defaultPrevented) return;
        event.preventDefault(); // ours, not the app's Escape (which stops a run)
        setOpen(false);
        button.current?.focus();
      }}
      onFocusOut={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        class="quiet"
        aria-expanded={open}
        title="Download this conversation as a page, Markdown or a session file"
        onClick={() => setOpen(!open)}
      >
        Share ▾
      </button>
      {open && (
        <div class="export-items" role="group" aria-label="Share as">
          {EXPORT_FORMATS.map(({ format, label }) => (
            <button key={format} type="button" onClick={() => choose({ format })}>
              {label}
            </button>
          ))}
          <button
            type="button"
            onClick={() => {
              setOpen(false);
              void loadTurns(sessionId).then((list) => list && setTurns(list));
            }}
          >
            Some turns…
          </button>
        </div>
      )}
      {turns && (
        <ExportRange
          turns={turns}
          onExport={(request) => {
            setTurns(undefined);
            onExport(sessionId, request);
          }}
          onCancel={() => {
            setTurns(undefined);
            button.current?.focus();
          }}
        />
      )}
    </div>
  );
}
