import { messageBox } from '../chat/message-box-focus.ts';

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
        const box = toMessageBox && messageBox();
        if (box) return box.focus();
        // Focusable for this once only: a main area that always were would take the focus of
        // every click in it (and the flow canvas's shortcuts listen only when nothing else has it).
        const main = document.querySelector<HTMLElement>('main');
        if (!main) return;
        main.tabIndex = -1;
        main.addEventListener('blur', () => main.removeAttribute('tabindex'), { once: true });
        main.focus();
      }}
    >
      {toMessageBox ? 'Skip to the message box' : 'Skip to the main area'}
    </a>
  );
}
