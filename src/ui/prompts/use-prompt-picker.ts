// `/` in the message box: the saved prompts matching what follows it, listed above the box while
// the caret stays after it; ↑ ↓ move, Enter or Tab pick, Escape closes (until the text changes).
// A prompt with variables asks for them first, in a small form (PromptPicker), as Open WebUI does:
// every variable is seen and filled before anything lands in the box, instead of placeholders
// the user must find and replace one by one.
//
// What must stay true:
// - the focus stays in the message box while the list is open (the list is its
//   aria-activedescendant's), so typing goes on narrowing it;
// - a key the list does not use (or any key with the list closed) is the message box's own:
//   Enter sends, Escape stops a run;
// - picking replaces exactly the `/query` before the caret; the rest of the text stays.

import type { RefObject } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import type { PromptRecord } from '../../../workers/protocol.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import { PromptsContext, type PromptLibrary } from './prompt-library.ts';
import { fillPrompt, insertAt, matchPrompts, promptVariables, slashQuery } from './prompt-text.ts';
import type { SlashQuery } from './prompt-text.ts';

/** Matches listed at most (more: type on to narrow them). */
const SHOWN = 8;

/** A prompt picked whose variables the form asks for. */
export interface Filling {
  prompt: PromptRecord;
  slash: SlashQuery;
  variables: string[];
}

export interface PromptPicker {
  /** The prompts listed (empty: the list is closed). */
  matches: PromptRecord[];
  active: number;
  filling: Filling | undefined;
  /** The message box's attributes for the list (ARIA). */
  boxProps: Record<string, string | undefined>;
  /** Reads the caret again (after typing or a click in the box). */
  follow: (text: string, caret: number) => void;
  /** True when the key was the list's. */
  onKeyDown: (event: KeyboardEvent) => boolean;
  pick: (prompt: PromptRecord) => void;
  setActive: (index: number) => void;
  /** The form's values, filled in and inserted; undefined: the form was cancelled. */
  finish: (values: Record<string, string> | undefined) => void;
}

export const LISTBOX_ID = 'prompt-suggestions';
export const optionId = (index: number) => `prompt-suggestion-${index}`;

export function usePromptPicker(
  box: RefObject<HTMLTextAreaElement | null>,
  text: string,
  setText: (text: string) => void,
): PromptPicker {
  const library = useContext(PromptsContext);
  useEffect(() => library?.start(), [library]);
  const prompts = useLibraryPrompts(library);
  const [slash, setSlash] = useState<SlashQuery>();
  const [active, setActive] = useState(0);
  const [filling, setFilling] = useState<Filling>();
  const matches = useMemo(
    () => (slash && !filling ? matchPrompts(prompts, slash.query).slice(0, SHOWN) : NONE),
    [prompts, slash, filling],
  );
  const close = () => setSlash(undefined);

  const insert = (at: SlashQuery, body: string) => {
    const next = insertAt(text, at, body);
    setText(next.text);
    close();
    // After the box has its new value.
    requestAnimationFrame(() => {
      const node = box.current;
      if (!node) return;
      node.focus();
      node.setSelectionRange(next.caret, next.caret);
    });
  };
  const pick = (prompt: PromptRecord) => {
    if (!slash) return;
    const variables = promptVariables(prompt.text);
    if (variables.length === 0) insert(slash, prompt.text);
    else setFilling({ prompt, slash, variables });
  };

  return {
    matches,
    active: Math.min(active, Math.max(0, matches.length - 1)),
    filling,
    boxProps: {
      'aria-autocomplete': 'list',
      'aria-controls': matches.length > 0 ? LISTBOX_ID : undefined,
      'aria-activedescendant': matches.length > 0 ? optionId(active) : undefined,
    },
    follow: (value, caret) => {
      const next = slashQuery(value, caret);
      if (next?.start !== slash?.start || next?.query !== slash?.query) setActive(0);
      setSlash(next);
    },
    onKeyDown: (event) => {
      if (matches.length === 0 || event.isComposing) return false;
      const move = (by: number) => setActive((active + by + matches.length) % matches.length);
      switch (event.key) {
        case 'ArrowDown':
          move(1);
          break;
        case 'ArrowUp':
          move(-1);
          break;
        case 'Enter':
        case 'Tab':
          if (event.shiftKey) return false;
          pick(matches[Math.min(active, matches.length - 1)]!);
          break;
        case 'Escape':
          close();
          break;
        default:
          return false;
      }
      event.preventDefault();
      // The list's Escape closes it, and is no run's Stop (App listens on the document).
      event.stopPropagation();
      return true;
    },
    pick,
    setActive,
    finish: (values) => {
      const done = filling;
      setFilling(undefined);
      if (done && values) insert(done.slash, fillPrompt(done.prompt.text, values));
      else {
        close();
        requestAnimationFrame(() => box.current?.focus());
      }
    },
  };
}

const NONE: PromptRecord[] = [];

function useLibraryPrompts(library: PromptLibrary | undefined): readonly PromptRecord[] {
  if (!library) return NONE;
  // The same library for the page's life: the hook order never changes.
  return useSnapshot(library).prompts;
}
