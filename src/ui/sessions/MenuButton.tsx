import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

interface Props {
  /** The button's accessible name: `Actions`, `Folder “Work”`. */
  label: string;
  /**
   * What it acts on, as its tooltip and description (`Actions for “Colors”`): not in its name,
   * which would then hold the session's title, and a search by name for a title (or for "New
   * session", the title of every new one) would find this button too.
   */
  about?: string;
  /** The items; `close(false)` closes without taking the focus back (the row may be gone). */
  children: (close: (refocus?: boolean) => void) => ComponentChildren;
}

/**
 * A "⋯" button that shows its actions below it: a disclosure (a button with aria-expanded and
 * plain buttons under it), not an ARIA menu, so that Tab and Enter work as everywhere else. Esc
 * or a click elsewhere closes it.
 */
export function MenuButton({ label, about, children }: Props) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  return (
    <div
      class="menu"
      ref={root}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open || event.defaultPrevented) return;
        // Ours: not the app's Escape, which stops a run.
        event.preventDefault();
        close();
      }}
    >
      <button
        ref={button}
        type="button"
        class="quiet menu-button"
        aria-label={label}
        title={about ?? label}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <div id={id} class="menu-items">
          {children(close)}
        </div>
      )}
    </div>
  );
}
