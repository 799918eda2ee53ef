import { useEffect, useRef } from 'preact/hooks';

/** What the rewind just made did, with its undo; it takes the focus, which the rewind took away. */
export function RewindNote(props: { said: string; disabled: boolean; onUndo: () => void }) {
  const note = useRef<HTMLParagraphElement>(null);
  useEffect(() => note.current?.focus(), [props.said]);
  return (
    <p class="rewind-note" role="status" tabIndex={-1} ref={note}>
      {props.said} Nothing is lost: the turns you left stay in History.{' '}
      <button type="button" disabled={props.disabled} onClick={props.onUndo}>
        Undo
      </button>
    </p>
  );
}
