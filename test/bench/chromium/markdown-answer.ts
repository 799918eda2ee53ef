// A long Markdown answer for the streaming bench, made deterministically (a seeded generator, no
// data file): sections with headings, paragraphs with emphasis, links and inline code, nested
// bullet and ordered lists, fenced code in several languages, tables and block quotes, cut at
// exactly `tokens` tokens. A token is what GPT-style pre-tokenisation would split off: a word
// with the spaces before it, up to three digits, up to three punctuation marks, or a run of
// newlines (about 4 characters of prose, fewer of code).

const WORDS = (
  'the a of to and in is it that for on with as this be by are from or an which can each we ' +
  'stream render parse block token chunk message answer model table list code layout browser ' +
  'cost budget frame value record event session state worker page style element node string ' +
  'number first last next before after again only every small large cheap quick careful plain'
).split(' ');

const TOKEN = /[ \t]*[A-Za-z_]+|[ \t]*\d{1,3}|[ \t]*[^\sA-Za-z\d_]{1,3}|\n+|[ \t]+/g;

/** The tokens of `text`, as the chunks of a stream would bring them. */
export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const CODE: Record<string, (r: () => number, n: number) => string> = {
  ts: (r, n) =>
    [
      `export function render${n}(items: readonly Item[]): string {`,
      `  const seen = new Set<string>();`,
      ...Array.from({ length: 4 + Math.floor(r() * 8) }, (_, i) =>
        i % 3 === 0
          ? `  for (const item of items) if (!seen.has(item.id)) seen.add(item.id); // pass ${i}`
          : `  const value${i} = items.length > ${i} ? items[${i}]!.name : 'none';`,
      ),
      `  return [...seen].join(', ');`,
      `}`,
    ].join('\n'),
  python: (r, n) =>
    [
      `def summarize_${n}(rows):`,
      `    """Counts rows by kind."""`,
      `    counts = {}`,
      ...Array.from({ length: 3 + Math.floor(r() * 7) }, (_, i) =>
        i % 2
          ? `    counts["k${i}"] = counts.get("k${i}", 0) + ${i}`
          : `    for row in rows[${i}:]:\n        counts[row.kind] = counts.get(row.kind, 0) + 1`,
      ),
      `    return counts`,
    ].join('\n'),
  bash: (r, n) =>
    Array.from(
      { length: 3 + Math.floor(r() * 5) },
      (_, i) => `npm run build -- --mode step${n}-${i} && echo "step ${i} done" # comment ${i}`,
    ).join('\n'),
  json: (r, n) =>
    JSON.stringify(
      {
        name: `section-${n}`,
        tokens: Math.floor(r() * 1000),
        items: Array.from({ length: 2 + Math.floor(r() * 4) }, (_, i) => ({
          id: i,
          ok: i % 2 === 0,
        })),
      },
      null,
      2,
    ),
};

/** An answer of exactly `tokens` tokens (its tokens and its text). */
export function markdownAnswer(tokens: number, seed = 8): { text: string; tokens: string[] } {
  const r = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const sentence = () => {
    const parts = [words(3 + Math.floor(r() * 6))];
    const extra = Math.floor(r() * 5);
    if (extra === 0) parts.push(`**${words(2)}**`);
    if (extra === 1) parts.push(`*${words(2)}*`);
    if (extra === 2) parts.push(`\`${pick(WORDS)}()\``);
    if (extra === 3) parts.push(`[${words(2)}](https://example.com/docs/${pick(WORDS)})`);
    parts.push(words(2 + Math.floor(r() * 6)));
    const text = parts.join(' ');
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = () => Array.from({ length: 2 + Math.floor(r() * 4) }, sentence).join(' ');
  const list = (ordered: boolean) =>
    Array.from({ length: 3 + Math.floor(r() * 4) }, (_, i) => {
      const item = `${ordered ? `${i + 1}.` : '-'} ${sentence()}`;
      if (r() < 0.3)
        return `${item}\n${Array.from({ length: 2 }, () => `${ordered ? '   ' : '  '}- ${words(4)}`).join('\n')}`;
      return item;
    }).join('\n');
  const table = () => {
    const columns = 3 + Math.floor(r() * 2);
    const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
    return [
      row(Array.from({ length: columns }, () => words(1))),
      row(Array.from({ length: columns }, (_, i) => (i === columns - 1 ? '---:' : '---'))),
      ...Array.from({ length: 3 + Math.floor(r() * 5) }, () =>
        row(
          Array.from({ length: columns }, (_, i) =>
            i === columns - 1 ? String(Math.floor(r() * 999)) : words(2),
          ),
        ),
      ),
    ].join('\n');
  };

  const blocks: string[] = [];
  let text = '';
  for (let section = 1; tokenize(text).length < tokens; section++) {
    blocks.push(`## ${section}. ${words(3)}`, paragraph());
    const kinds = ['list', 'ordered', 'code', 'table', 'quote', 'paragraph'] as const;
    for (let i = 0; i < 4; i++) {
      const kind = pick(kinds);
      if (kind === 'list') blocks.push(list(false));
      else if (kind === 'ordered') blocks.push(list(true));
      else if (kind === 'code') {
        const language = pick(Object.keys(CODE));
        blocks.push(`\`\`\`${language}\n${CODE[language]!(r, section)}\n\`\`\``);
      } else if (kind === 'table') blocks.push(table());
      else if (kind === 'quote') blocks.push(`> ${sentence()}\n> ${sentence()}`);
      else blocks.push(paragraph());
    }
    text = blocks.join('\n\n');
  }
  const all = tokenize(text).slice(0, tokens);
  return { text: all.join(''), tokens: all };
}
