import { useEffect, useMemo, useState } from 'preact/hooks';
import { download } from './download.ts';
import { previewOf, wholeText, type Preview } from './preview.ts';

interface Props {
  /** What is shown: a string as it is, anything else as JSON (ignored with `load`). */
  value: unknown;
  /**
   * Reads the whole value, when the page holds only its `preview` (a long state value): once,
   * on Show all or Download. `undefined` from it (a failed read) shows and saves nothing.
   */
  load?: () => Promise<unknown>;
  /** Characters shown until Show all (default: the preview's). */
  max?: number;
  /** Spaces per level of JSON indentation. */
  indent?: number;
  /** The caller's own preview of `value` (made once per value in a view model); else its start. */
  preview?: Preview;
  /** The name Download saves under (`.txt` or `.json` is added); no Download without one. */
  filename?: string;
  /** The element that holds the text. */
  as?: 'span' | 'p' | 'pre' | 'code';
  class?: string;
}

const COUNT = new Intl.NumberFormat();

/**
 * A text or value that may be long: its start, and when there is more, Show all (for a whole
 * text short enough to lay out) and Download. The page never lays out more of it than that: a long
 * value laid out whole would cost seconds per layout. With `load`, the page does not even hold
 * the value until one of them asks for it.
 */
export function LongText({
  value,
  load,
  max,
  indent = 0,
  preview: given,
  filename,
  as: Tag = 'span',
  class: className,
}: Props) {
  const own = useMemo(
    () => (given ? undefined : previewOf(value, { max, indent })),
    [given, value, max, indent],
  );
  const preview = given ?? own!;
  const [expanded, setExpanded] = useState(false);
  /** The whole value read with `load`. */
  const [loaded, setLoaded] = useState<{ value: unknown }>();
  const known = useMemo(() => (load ? loaded : { value }), [load, loaded, value]);
  // A value read whole is forgotten once its preview says it changed.
  const version = load ? `${preview.length}:${preview.text}` : '';
  useEffect(() => {
    setLoaded(undefined);
    setExpanded(false);
  }, [version]);
  const all = expanded && preview.truncated && preview.showable && known !== undefined;
  const whole = useMemo(
    () => (all ? wholeText(known!.value, indent) : undefined),
    [all, known, indent],
  );
  /** The whole value: here already, or read once. */
  const wholeValue = async (): Promise<unknown> => {
    if (known) return known.value;
    const value = await load!();
    if (value !== undefined) setLoaded({ value });
    return value;
  };
  const save = (whole: unknown) => {
    if (whole === undefined || !filename) return;
    if (typeof whole === 'string') download(`${filename}.txt`, whole, 'text/plain');
    else download(`${filename}.json`, wholeText(whole, 2));
  };
  if (!preview.truncated) return <Tag class={className}>{preview.text}</Tag>;
  return (
    <Tag class={className ? `${className} long-text` : 'long-text'}>
      {/* The ellipsis apart: the cut text stays the same string while a streamed one grows. */}
      {whole ?? preview.text}
      {whole === undefined && '…'}
      <span class="long-text-actions">
        {preview.length !== undefined && (
          <span class="long-text-size">{COUNT.format(preview.length)} characters</span>
        )}
        {preview.showable && (
          <button
            type="button"
            aria-expanded={all}
            onClick={() =>
              all
                ? setExpanded(false)
                : void wholeValue().then((whole) => setExpanded(whole !== undefined))
            }
          >
            {all ? 'Show less' : 'Show all'}
          </button>
        )}
        {filename && (
          <button
            type="button"
            onClick={() => (known ? save(known.value) : void wholeValue().then(save))}
          >
            Download
          </button>
        )}
      </span>
    </Tag>
  );
}
