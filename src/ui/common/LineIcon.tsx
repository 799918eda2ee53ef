// A small line-drawn icon (the composer's paper clip and microphone): one path, drawn in the
// text's colour, hidden from screen readers (its button has the name).

export function LineIcon({ d }: { d: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
      <path d={d} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
    </svg>
  );
}
