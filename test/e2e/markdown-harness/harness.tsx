// A page with nothing but the chat's Markdown component (src/ui/markdown/Markdown.tsx) in a
// message bubble, with the app's styles: test/e2e/markdown-xss.test.ts renders hostile Markdown
// through it, whole and streamed chunk by chunk, and checks the DOM after every step.

import { render } from 'preact';
import '../../../src/ui/styles.css';
import { Markdown } from '../../../src/ui/markdown/Markdown.tsx';
import { loadMarkdown } from '../../../src/ui/markdown/load-markdown.ts';

declare global {
  interface Window {
    /** The trap: any payload that runs calls it. */
    __xss(): void;
    __xssHits: number;
    markdownHarness: typeof harness;
  }
}

window.__xssHits = 0;
window.__xss = () => {
  window.__xssHits++;
};

const root = document.getElementById('root')!;
let messages = 0;

/** As the chat shows it: the streaming bubble is a different element from the stored message. */
function Message({ text, id, streaming }: { text: string; id: string; streaming: boolean }) {
  return (
    <section class="chat" aria-label="Conversation">
      <ol>
        {streaming ? (
          <li key="streaming" class="message from-agent streaming">
            <span class="author">agent</span>
            <Markdown text={text} id={id} streaming />
          </li>
        ) : (
          <li key={id} class="message from-agent">
            <span class="author">agent</span>
            <Markdown text={text} id={id} />
          </li>
        )}
      </ol>
    </section>
  );
}

/** Elements and attributes in the message that are not on the allow-list. */
function violations(allowed: Record<string, string[]>): string[] {
  const found: string[] = [];
  const content = root.querySelector('.message .markdown');
  if (!content) return ['no .markdown element'];
  for (const element of content.querySelectorAll('*')) {
    const tag = element.localName;
    const attributes = allowed[tag];
    if (!attributes || element.namespaceURI !== 'http://www.w3.org/1999/xhtml') {
      found.push(`<${tag}> (${element.namespaceURI})`);
      continue;
    }
    for (const name of element.getAttributeNames())
      if (name !== 'class' && !attributes.includes(name)) found.push(`<${tag} ${name}>`);
    if (tag === 'a') {
      const href = element.getAttribute('href') ?? '';
      if (!/^(?:https?:\/\/|mailto:)/i.test(href)) found.push(`<a href="${href}">`);
      if (element.getAttribute('target') !== '_blank') found.push('<a> without target=_blank');
      if (element.getAttribute('rel') !== 'noopener noreferrer') found.push('<a> without rel');
    }
  }
  return found;
}

const harness = {
  /** Renders `text` as a stored message. */
  async show(text: string): Promise<void> {
    await loadMarkdown();
    render(<Message text={text} id={`m${++messages}`} streaming={false} />, root);
  },

  /**
   * Renders `text` streamed in chunks of `size` characters, then stored, checking the DOM after
   * every step; returns what was not allowed, by step.
   */
  async check(text: string, size: number, allowed: Record<string, string[]>): Promise<string[]> {
    await loadMarkdown();
    const found: string[] = [];
    const id = `m${++messages}`;
    for (let end = size; end < text.length + size; end += size) {
      render(<Message text={text.slice(0, end)} id={id} streaming />, root);
      for (const v of violations(allowed)) found.push(`streamed ${end}: ${v}`);
    }
    render(<Message text={text} id={id} streaming={false} />, root);
    for (const v of violations(allowed)) found.push(`stored: ${v}`);
    // And once cold, as a message opened from history: no stream to take over.
    render(<Message text={text} id={`m${++messages}`} streaming={false} />, root);
    for (const v of violations(allowed)) found.push(`opened: ${v}`);
    return found;
  },

  /** Renders `text` as message `id`, streaming or stored (after `loaded()`). */
  render(text: string, id: string, streaming: boolean): void {
    render(<Message text={text} id={id} streaming={streaming} />, root);
  },

  loaded: () => loadMarkdown().then(() => undefined),

  text: () => root.querySelector('.message .markdown')?.textContent ?? '',
};

window.markdownHarness = harness;
