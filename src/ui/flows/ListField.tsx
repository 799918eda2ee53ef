// A list field of a form (tools, scenarios, blocked words): typed one item a line, with the
// choices not in it yet offered beside it.

import { useState } from 'preact/hooks';

/**
 * A list typed one item a line. What the user types stays as typed while the box has the focus
 * (the flow keeps only the items, so a new line or a comma just typed would vanish if the box
 * showed the flow's value at every keystroke); it shows the flow's items again once left.
 */
export function ListField({
  label,
  item,
  value,
  choices,
  onInput,
}: {
  label: string;
  item: string;
  value: string;
  /** Items to add from a list (those not in it already). */
  choices: readonly string[];
  onInput: (text: string) => void;
}) {
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const text = typed ?? value;
  const items = text.split('\n').map((line) => line.trim());
  const left = choices.filter((choice) => !items.includes(choice));
  return (
    <>
      <label>
        {label} <span class="hint">(one {item} a line)</span>
        <textarea
          rows={3}
          value={text}
          onInput={(event) => {
            setTyped(event.currentTarget.value);
            onInput(event.currentTarget.value);
          }}
          onBlur={() => setTyped(undefined)}
        />
      </label>
      {left.length > 0 && (
        <select
          aria-label={`Add a ${item}`}
          value=""
          onChange={(event) => {
            const choice = event.currentTarget.value;
            if (!choice) return;
            const next = [...items.filter(Boolean), choice].join('\n');
            setTyped(undefined);
            onInput(next);
          }}
        >
          <option value="">Add a {item}…</option>
          {left.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      )}
    </>
  );
}
