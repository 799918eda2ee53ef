// The Copy button of a code block: copies the code's raw text (what the model wrote between the
// fences, without the last newline), then says "Copied" for a moment. One listener per message
// (on its Markdown root), not one per button: the buttons live in DOM that Preact does not own.

const SAY_FOR_MS = 1500;
const timers = new WeakMap<Element, ReturnType<typeof setTimeout>>();

export function onMarkdownClick(event: MouseEvent): void {
  const button = (event.target as Element | null)?.closest?.('button.copy-code');
  const block = button?.closest('.code-block');
  if (!button || !block) return;
  const code = block.querySelector('pre code')?.textContent ?? '';
  navigator.clipboard.writeText(code.replace(/\n$/, '')).then(
    () => say(button, block, 'Copied'),
    // Refused (no permission, the page not focused): say so; nothing else to do.
    () => say(button, block, 'Could not copy'),
  );
}

function say(button: Element, block: Element, text: string): void {
  const status = block.querySelector('.copy-status');
  button.textContent = text === 'Copied' ? 'Copied' : 'Copy';
  if (status) status.textContent = text;
  clearTimeout(timers.get(button));
  timers.set(
    button,
    setTimeout(() => {
      button.textContent = 'Copy';
      if (status) status.textContent = '';
    }, SAY_FOR_MS),
  );
}
