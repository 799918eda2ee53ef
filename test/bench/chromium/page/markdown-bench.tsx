// The Markdown streaming bench page: the chat's real Markdown component (src/ui/markdown/) in a
// message bubble with the app's styles, fed a long answer chunk by chunk at a fixed pace, beside
// the baseline that re-parses the whole answer on every chunk (the same parser, sanitiser and DOM
// work, without the incremental rule). Node calls `window.markdownBench` through page.evaluate;
// it only times, never judges.

import { render } from 'preact';
import '../../../../src/ui/styles.css';
import { Markdown } from '../../../../src/ui/markdown/Markdown.tsx';
import { loadMarkdown } from '../../../../src/ui/markdown/load-markdown.ts';
import { createMarkdownParser } from '../../../../src/ui/markdown/markdown-parser.ts';
import { markdownElement } from '../../../../src/ui/markdown/sanitize.ts';
import { markdownAnswer } from '../markdown-answer.ts';

export type StreamMode = 'incremental' | 'whole';

export interface StreamSample {
  /** Each measured chunk's cost, ms: the render (parse, sanitise, DOM) and the layout it forces. */
  chunkMs: number[];
  /** Of which the layout, ms. */
  layoutMs: number[];
  /** Long tasks (over 50 ms) of the main thread while the measured chunks streamed, ms. */
  longTasks: number[];
  /** From the first measured chunk to the end of the last, ms (behind the pace if over). */
  durationMs: number;
}

const longTasks: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    longTasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: 'longtask', buffered: true });

const root = document.getElementById('root')!;
let answers = 0;
/** The last answer streamed, for `stored`. */
let last: { text: string; id: string } | undefined;

function Bubble({
  children,
  streaming,
}: {
  children: preact.ComponentChildren;
  streaming: boolean;
}) {
  return (
    <section class="chat" aria-label="Conversation">
      <ol>
        <li
          key={streaming ? 'streaming' : 'stored'}
          class={`message from-agent${streaming ? ' streaming' : ''}`}
        >
          <span class="author">writer</span>
          {children}
        </li>
      </ol>
    </section>
  );
}

/** The baseline: every chunk parses, sanitises and builds the whole answer again. */
const parser = createMarkdownParser();
function renderWhole(text: string) {
  render(
    <Bubble streaming>
      <div class="markdown whole" />
    </Bubble>,
    root,
  );
  const element = markdownElement(parser.render(text));
  root.querySelector('.markdown.whole')!.replaceChildren(element);
}

const layout = () => root.getBoundingClientRect().height;
const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

const bench = {
  /** The answer's size, for the report. */
  answer(tokens: number) {
    const { text } = markdownAnswer(tokens);
    return { characters: text.length, tokens };
  },

  /**
   * Streams the answer of `tokens` tokens in chunks of `perChunk` tokens, one every `intervalMs`
   * (or as soon as the previous one is done, when behind). Chunks before `from` are rendered at
   * once, unmeasured (the baseline's late window starts from there: it keeps no state); the
   * chunks in [from, to) are measured.
   */
  async stream(
    mode: StreamMode,
    tokens: number,
    perChunk: number,
    from: number,
    to: number,
    intervalMs: number,
  ): Promise<StreamSample> {
    await loadMarkdown();
    const answer = markdownAnswer(tokens).tokens;
    const ends: number[] = [];
    for (let i = 0, end = 0; i < answer.length; i += perChunk) {
      for (const token of answer.slice(i, i + perChunk)) end += token.length;
      ends.push(end);
    }
    const text = answer.join('');
    const id = `answer-${++answers}`;
    const show = (length: number) => {
      if (mode === 'whole') renderWhole(text.slice(0, length));
      else
        render(
          <Bubble streaming>
            <Markdown text={text.slice(0, length)} id={id} streaming />
          </Bubble>,
          root,
        );
    };
    if (from > 0) show(ends[from - 1]!);
    layout();
    await sleepUntil(performance.now() + 200); // let the unmeasured render's tasks end
    const chunkMs: number[] = [];
    const layoutMs: number[] = [];
    const started = performance.now();
    for (let chunk = from; chunk < Math.min(to, ends.length); chunk++) {
      await sleepUntil(started + (chunk - from) * intervalMs);
      const t0 = performance.now();
      show(ends[chunk]!);
      const t1 = performance.now();
      layout();
      const t2 = performance.now();
      chunkMs.push(t2 - t0);
      layoutMs.push(t2 - t1);
    }
    const ended = performance.now();
    last = { text, id };
    await sleepUntil(performance.now() + 100); // the last task's longtask entry
    const during = longTasks.filter((task) => task.start >= started && task.start < ended + 50);
    if (mode === 'whole') render(null, root);
    return {
      chunkMs,
      layoutMs,
      longTasks: during.map((task) => task.duration),
      durationMs: ended - started,
    };
  },

  /**
   * After an incremental stream: the stored message replacing the streaming one (it takes over
   * what the stream rendered), then the same message rendered cold, as when a session is opened.
   */
  async stored(): Promise<{ takeOverMs: number; coldMs: number }> {
    const { text, id } = last!;
    const once = async (messageId: string) => {
      await sleepUntil(performance.now() + 100);
      const t0 = performance.now();
      render(
        <Bubble streaming={false}>
          <Markdown key={messageId} text={text} id={messageId} />
        </Bubble>,
        root,
      );
      layout();
      return performance.now() - t0;
    };
    const takeOverMs = await once(id);
    const coldMs = await once(`${id}-cold`);
    render(null, root);
    return { takeOverMs, coldMs };
  },

  /** How many chunks the answer makes. */
  chunks(tokens: number, perChunk: number) {
    return Math.ceil(markdownAnswer(tokens).tokens.length / perChunk);
  },
};

declare global {
  interface Window {
    markdownBench: typeof bench;
  }
}
window.markdownBench = bench;
