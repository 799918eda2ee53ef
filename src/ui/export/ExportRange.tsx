import { useId, useState } from 'preact/hooks';
import type { ExportRequest, ExportTurnChoice } from '../../../workers/protocol.ts';
import { EXPORT_FORMATS } from './export-formats.ts';

interface Props {
  /** The active conversation's turns, oldest first. */
  turns: ExportTurnChoice[];
  onExport: (request: ExportRequest) => void;
  onCancel: () => void;
}

/**
 * Share → Some turns…: from which turn to which (both included), in which format. The last turn
 * can be no earlier than the first: choosing a later first turn moves it along.
 */
export function ExportRange({ turns, onExport, onCancel }: Props) {
  const [from, setFrom] = useState(0);
  const [to, setTo] = useState(turns.length - 1);
  const [format, setFormat] = useState<ExportRequest['format']>('html');
  const id = useId();
  if (turns.length === 0)
    return (
      <form class="export-range" aria-label="Turns to share" onSubmit={(e) => e.preventDefault()}>
        <p>There are no turns to share yet.</p>
        <button type="button" onClick={onCancel}>
          Close
        </button>
      </form>
    );
  const options = turns.map((turn, i) => (
    <option key={turn.invocationId} value={i}>
      {`${i + 1}. ${turn.text || '(no text)'}`}
    </option>
  ));
  return (
    <form
      class="export-range"
      aria-label="Turns to share"
      onSubmit={(event) => {
        event.preventDefault();
        const range = { from: turns[from]!.invocationId, to: turns[to]!.invocationId };
        onExport({ format, range });
      }}
    >
      <label for={`${id}-from`}>From turn</label>
      <select
        id={`${id}-from`}
        value={from}
        onChange={(event) => {
          const first = Number(event.currentTarget.value);
          setFrom(first);
          if (to < first) setTo(first);
        }}
      >
        {options}
      </select>
      <label for={`${id}-to`}>To turn</label>
      <select
        id={`${id}-to`}
        value={to}
        onChange={(event) => setTo(Number(event.currentTarget.value))}
      >
        {options.filter((_, i) => i >= from)}
      </select>
      <label for={`${id}-as`}>As</label>
      <select
        id={`${id}-as`}
        value={format}
        onChange={(event) => setFormat(event.currentTarget.value as ExportRequest['format'])}
      >
        {EXPORT_FORMATS.map(({ format: value, label }) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <button type="submit">Download</button>
      <button type="button" class="quiet" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
