// An answer's Markdown as the words Read aloud says: the text, without the syntax a voice would
// read out as symbols (`**`, `#`, `|`, link targets, code fences). Approximate on purpose: a
// line-by-line pass, not a Markdown parser (the one the chat draws with is loaded lazily, and
// speech forgives what a page would not).

export function speechText(markdown: string): string {
  const lines: string[] = [];
  let fenced = false;
  for (const raw of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      lines.push(raw);
      continue;
    }
    if (/^\s*([-*_]\s*){3,}$/.test(raw)) continue; // A rule.
    if (/^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$/.test(raw)) continue; // A table's line.
    lines.push(inline(blockMarks(raw)));
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A line without its heading, quote and list marks. */
function blockMarks(line: string): string {
  return line
    .replace(/^\s{0,3}#{1,6}\s+/, '')
    .replace(/^\s*(>\s?)+/, '')
    .replace(/^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/, '');
}

function inline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // An image: its alt text.
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1') // A link: its words.
    .replace(/<\/?[a-zA-Z][^>]*>/g, '') // HTML tags.
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/\s*\|\s*/g, (match, offset: number, whole: string) =>
      offset === 0 || offset + match.length === whole.length ? '' : ', ',
    )
    .trimEnd();
}
