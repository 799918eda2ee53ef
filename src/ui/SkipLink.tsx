import { messageBox } from './message-box-focus.ts';

/**
 * The first stop of Tab: straight to the message box (past the header, the sessions and every
 * message), or to the main area when a view shows in place of the chat. Shown when focused.
 */
export function SkipLink({ toMessageBox }: { toMessageBox: boolean }) {
  return (
    <a
      class="skip-link"
      // Not a fragment: the page's address is its fragment (address.ts).
      href="#"
      onClick={(event) => {
        event.preventDefault();
        const target =
          (toMessageBox && messageBox()) || document.querySelector<HTMLElement>('main');
        target?.focus();
      }}
    >
      {toMessageBox ? 'Skip to the message box' : 'Skip to the main area'}
    </a>
  );
}
