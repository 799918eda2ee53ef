import { useMemo, useState } from 'preact/hooks';
import { download } from './download.ts';
import { previewOf, wholeText, type Preview } from './preview.ts';

interface Props {
  /** What is shown: a string as it is, anything else as JSON. */
  value: unknown;
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
 * text short enough to lay out) and Download. The page never holds more of it than that: a long
 * value laid out whole would cost seconds per layout.
 */
export function LongText({
  value,
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
  const all = expanded && preview.truncated && preview.showable;
  const whole = useMemo(() => (all ? wholeText(value, indent) : undefined), [all, value, indent]);
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
          <button type="button" aria-expanded={all} onClick={() => setExpanded(!all)}>
            {all ? 'Show less' : 'Show all'}
          </button>
        )}
        {filename && (
          <button
            type="button"
            onClick={() =>
              typeof value === 'string'
                ? download(`${filename}.txt`, value, 'text/plain')
                : download(`${filename}.json`, wholeText(value, 2))
            }
          >
            Download
          </button>
        )}
      </span>
    </Tag>
  );
}
