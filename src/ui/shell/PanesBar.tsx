/**
 * On a phone-sized screen the workbench is one column showing one pane at a time, chosen in the
 * Panels bar; on a wider one every pane shows and the bar is hidden (styles.css).
 */
export type Pane = 'chat' | 'sessions' | 'flow' | 'history' | 'state' | 'artifacts' | 'log';

const PANES: { id: Pane; label: string }[] = [
  { id: 'chat', label: 'Chat' },
  { id: 'sessions', label: 'Sessions' },
  { id: 'flow', label: 'Flow' },
  { id: 'history', label: 'History' },
  { id: 'state', label: 'State' },
  { id: 'artifacts', label: 'Artifacts' },
  { id: 'log', label: 'Log' },
];

interface Props {
  /** The pane shown; none while a view (Flows, Settings…) takes the main area. */
  pane: Pane | undefined;
  /** The session's agent is a flow: its graph has a pane. */
  withFlow: boolean;
  onChoose: (pane: Pane) => void;
}

export function PanesBar({ pane, withFlow, onChoose }: Props) {
  return (
    <nav class="panes" aria-label="Panels">
      {PANES.filter(({ id }) => id !== 'flow' || withFlow).map(({ id, label }) => (
        <button key={id} type="button" aria-pressed={pane === id} onClick={() => onChoose(id)}>
          {label}
        </button>
      ))}
    </nav>
  );
}
