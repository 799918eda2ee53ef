// An agent's message as Markdown. Until the renderer has loaded (load-markdown.ts), the text is
// shown as it is, pre-wrapped. While the message streams, each chunk re-renders only its
// unfinished last block: finished blocks are keyed, so Preact leaves their DOM alone, and they
// come in groups (a box each) that re-render only when one of their own blocks is new, so a chunk
// costs about the same at the end of a long answer as at its start (neither Preact's diff nor the
// layout walks every finished block).

import { Component, createRef } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { IncrementalMarkdown, MarkdownView, RenderedBlock } from './incremental.ts';
import { loadedMarkdown, loadMarkdown, type MarkdownLibrary } from './load-markdown.ts';

export { fitsMarkdown } from './load-markdown.ts';

interface Props {
  text: string;
  /** The message's event id: the stored message takes over what its stream rendered. */
  id: string;
  /** More text will come (the answer is streaming). */
  streaming?: boolean;
}

export function Markdown({ text, id, streaming = false }: Props) {
  const library = useMarkdownLibrary();
  const renderer = useRef<{ id: string; renderer: IncrementalMarkdown } | undefined>(undefined);
  const view = useMemo(() => {
    if (!library) return undefined;
    if (renderer.current?.id !== id) renderer.current = { id, renderer: library.rendererFor(id) };
    return renderer.current.renderer.render(text, !streaming);
  }, [library, id, text, streaming]);
  const groups = useGroups(view);

  if (!library || !view)
    return (
      <div class="markdown">
        <p>{text}</p>
      </div>
    );
  return (
    <div class="markdown" onClick={library.onMarkdownClick}>
      {groups.map((group) => (
        <BlockGroup key={group[0]!.key} blocks={group} library={library} />
      ))}
      {view.unfinished && (
        <MarkdownBlock key={view.unfinished.key} block={view.unfinished} library={library} />
      )}
    </div>
  );
}

const GROUP = 32;

/**
 * The finished blocks in groups of GROUP; a full group keeps its array (and so its rendering)
 * from one view to the next, only the last group changes as blocks finish.
 */
function useGroups(view: MarkdownView | undefined): (readonly RenderedBlock[])[] {
  const previous = useRef(new Map<string, readonly RenderedBlock[]>());
  const finished = view?.finished;
  return useMemo(() => {
    const groups: (readonly RenderedBlock[])[] = [];
    const kept = new Map<string, readonly RenderedBlock[]>();
    for (let i = 0; finished && i < finished.length; i += GROUP) {
      const size = Math.min(GROUP, finished.length - i);
      const old = previous.current.get(finished[i]!.key);
      const group = old?.length === size ? old : finished.slice(i, i + size);
      kept.set(finished[i]!.key, group);
      groups.push(group);
    }
    previous.current = kept;
    return groups;
  }, [finished]);
}

function useMarkdownLibrary(): MarkdownLibrary | undefined {
  const [library, setLibrary] = useState(loadedMarkdown);
  useEffect(() => {
    if (library) return;
    let mounted = true;
    loadMarkdown().then(
      (loaded) => mounted && setLibrary(() => loaded),
      // The chunk could not be fetched: the message stays plain text, which says all it says.
      () => undefined,
    );
    return () => {
      mounted = false;
    };
  }, [library]);
  return library;
}

interface GroupProps {
  blocks: readonly RenderedBlock[];
  library: MarkdownLibrary;
}

class BlockGroup extends Component<GroupProps> {
  override shouldComponentUpdate(next: GroupProps): boolean {
    return next.blocks !== this.props.blocks;
  }

  override render() {
    const { blocks, library } = this.props;
    // A box per group: a chunk's layout walks the groups, not every finished block.
    return (
      <div class="md-group">
        {blocks.map((block) => (
          <MarkdownBlock key={block.key} block={block} library={library} />
        ))}
      </div>
    );
  }
}

interface BlockProps {
  block: RenderedBlock;
  library: MarkdownLibrary;
}

/**
 * One top-level block: its sanitised DOM, made once per block, put into the div Preact renders
 * (after the commit, so a block the stored message takes over from its stream has left the
 * stream's DOM by then and is moved, not made again).
 */
class MarkdownBlock extends Component<BlockProps> {
  private readonly slot = createRef<HTMLDivElement>();

  override shouldComponentUpdate(next: BlockProps): boolean {
    return next.block !== this.props.block;
  }

  override componentDidMount(): void {
    this.show();
  }

  override componentDidUpdate(): void {
    this.show();
  }

  private show(): void {
    const slot = this.slot.current;
    if (!slot) return;
    const element = this.props.library.blockElement(this.props.block);
    // Shown elsewhere still (the same message twice on screen): show a copy here.
    const node =
      element.isConnected && element.parentNode !== slot ? element.cloneNode(true) : element;
    slot.replaceChildren(node);
  }

  override render() {
    return <div class="md-block" ref={this.slot} />;
  }
}
