// What of search is in the page's first chunk: Ctrl+K (⌘K on a Mac) and the Search button open
// the dialog, whose code (and the worker's MiniSearch) is loaded the first time it opens; closing
// it gives the focus back to where it was.

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { lazy } from '../common/lazy.tsx';
import type { RuntimeClient, Workbench } from '../workbench/workbench.ts';

const SearchDialog = lazy(
  () => import('./SearchDialog.tsx').then((module) => module.SearchDialog),
  {
    fallback: null,
  },
);

/** Ctrl+K or ⌘K, as a browser's address bar does not take it from a page. */
const isSearchKey = (event: KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';

export function useSearchLauncher(
  client: RuntimeClient,
  workbench: Workbench,
  onOpened: () => void,
) {
  const [open, setOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const actions = useMemo(
    () => ({
      open: () => {
        returnTo.current = document.activeElement as HTMLElement | null;
        setOpen(true);
      },
      close: () => {
        setOpen(false);
        // After the dialog is gone, unless a hit's turn took the focus meanwhile.
        requestAnimationFrame(() => {
          if (document.activeElement === document.body) returnTo.current?.focus?.();
        });
      },
    }),
    [],
  );
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isSearchKey(event)) return;
      event.preventDefault();
      actions.open();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [actions]);
  const dialog = open ? (
    <SearchDialog
      client={client}
      workbench={workbench}
      onClose={actions.close}
      onOpened={onOpened}
    />
  ) : null;
  return { open: actions.open, dialog };
}
