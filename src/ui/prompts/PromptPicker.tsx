// What `/` in the message box shows above it (use-prompt-picker.ts): the matching saved prompts
// as a listbox the box drives (aria-activedescendant), or, for a picked prompt with variables,
// the small form that asks for them. The form is a group, not a <form>: it sits inside the
// composer's form, and its Enter must not send the message.

import { useEffect, useRef, useState } from 'preact/hooks';
import { clip } from '../common/preview.ts';
import {
  LISTBOX_ID,
  optionId,
  type Filling,
  type PromptPicker as Picker,
} from './use-prompt-picker.ts';

export function PromptPicker({ picker }: { picker: Picker }) {
  if (picker.filling) return <VariablesForm filling={picker.filling} onDone={picker.finish} />;
  if (picker.matches.length === 0) return null;
  return (
    <ul id={LISTBOX_ID} class="prompt-picker" role="listbox" aria-label="Saved prompts">
      {picker.matches.map((prompt, index) => (
        <li
          key={prompt.id}
          id={optionId(index)}
          role="option"
          aria-selected={index === picker.active}
          // The focus stays in the message box: a press here must not take it.
          onMouseDown={(event) => event.preventDefault()}
          onMouseMove={() => index !== picker.active && picker.setActive(index)}
          onClick={() => picker.pick(prompt)}
        >
          <span class="prompt-name">/{prompt.name}</span>
          <span class="prompt-preview">{clip(prompt.text.replace(/\s+/g, ' '), 90)}</span>
        </li>
      ))}
    </ul>
  );
}

function VariablesForm({
  filling,
  onDone,
}: {
  filling: Filling;
  onDone: (values: Record<string, string> | undefined) => void;
}) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(filling.variables.map((name) => [name, ''])),
  );
  const headingId = 'prompt-variables-heading';
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => group.current?.querySelector('input')?.focus(), []);
  return (
    <div
      ref={group}
      class="prompt-variables"
      role="group"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          onDone(undefined);
        } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
          // Not the composer's submit: Enter inserts the prompt.
          event.preventDefault();
          onDone(values);
        }
      }}
    >
      <p id={headingId} class="prompt-variables-title">
        Fill in “{filling.prompt.name}”
      </p>
      {filling.variables.map((name) => (
        <label key={name}>
          {name}
          <input
            value={values[name]}
            onInput={(event) => {
              const value = event.currentTarget.value;
              setValues((current) => ({ ...current, [name]: value }));
            }}
          />
        </label>
      ))}
      <div class="prompt-buttons">
        <button type="button" class="primary" onClick={() => onDone(values)}>
          Insert
        </button>
        <button type="button" onClick={() => onDone(undefined)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
