// `?` opens the list of the app's keyboard shortcuts (shortcuts.ts) in a modal dialog, as GitHub
// and Gmail do; not while the focus is in a field, where `?` is a character. Escape or Close
// closes it, and the focus goes back where it was (the native <dialog> does both).

import { useEffect, useRef } from 'preact/hooks';
import { SHORTCUTS } from './shortcuts.ts';

export function KeyboardShortcuts() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || typingIn(event.target) || dialog.current?.open) return;
      event.preventDefault();
      dialog.current?.showModal();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <dialog
      ref={dialog}
      class="shortcuts-dialog"
      aria-labelledby="shortcuts-title"
      onClick={(event) => event.target === event.currentTarget && dialog.current?.close()}
    >
      <div class="shortcuts-head">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      {SHORTCUTS.map((group) => (
        // No aria-label: a group is named by its heading (and `getByLabel('Message')` finds the
        // message box alone).
        <section key={group.name}>
          <h3>{group.name}</h3>
          <dl>
            {group.shortcuts.map(({ keys, what }) => (
              <div key={`${keys.join('+')} ${what}`}>
                <dt>
                  {keys.map((key, i) => (
                    <span key={key}>
                      {i > 0 && (keys[0] === '↑' ? ' ' : '+')}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <p class="hint">On a Mac, ⌘ works where Ctrl is shown.</p>
    </dialog>
  );
}

function typingIn(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element?.closest?.(
    'input, textarea, select, [contenteditable=""], [contenteditable="true"]',
  );
}
