// Cutting a document's text into chunks: by headings, then paragraphs packed up to the size,
// long paragraphs at sentences, spaces, or anywhere; overlap at word starts; PDF chunks on their
// page. The invariants hold over many random documents (offsets exact, sizes kept, every word in
// some chunk, the right heading path), and 1 MB chunks in well under 100 ms.

import { describe, expect, it } from 'vitest';
import { isTrellisError } from '../../../src/core/errors.ts';
import { chunkDocument } from '../../../src/knowledge/chunk.ts';
import type { ExtractedDocument, PageSpan, TextChunk } from '../../../src/knowledge/types.ts';

const markdown = (text: string): ExtractedDocument => ({ kind: 'markdown', text });
const plain = (text: string): ExtractedDocument => ({ kind: 'text', text });
const texts = (chunks: TextChunk[]) => chunks.map((chunk) => chunk.text);

/** A PDF's extracted text from its pages' texts, joined as pdf-text.ts joins them. */
function pdf(pages: string[]): ExtractedDocument {
  let text = '';
  const spans: PageSpan[] = [];
  pages.forEach((page, i) => {
    if (page !== '' && text !== '') text += '\n\n';
    spans.push({ page: i + 1, start: text.length, end: text.length + page.length });
    text += page;
  });
  return { kind: 'pdf', text, pages: spans };
}

/** A deterministic random source (mulberry32). */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
  return { next, int, pick };
}

describe('chunkDocument: shapes of text', () => {
  const options = { size: 200, overlap: 0 };

  it('packs whole paragraphs up to the size', () => {
    const p = (n: number) => `Paragraph ${n} ${'x'.repeat(60)}.`;
    const text = [p(1), p(2), p(3), p(4)].join('\n\n');
    expect(texts(chunkDocument(plain(text), options))).toEqual([
      `${p(1)}\n\n${p(2)}`,
      `${p(3)}\n\n${p(4)}`,
    ]);
  });

  it('cuts a long paragraph at sentence ends, then spaces, then anywhere', () => {
    const sentence = (n: number) => `Sentence ${n} says ${'a'.repeat(40)}.`;
    const sentences = Array.from({ length: 8 }, (_, i) => sentence(i + 1)).join(' ');
    for (const chunk of texts(chunkDocument(plain(sentences), options)))
      expect(chunk, chunk).toMatch(/^Sentence \d+ .*\.$/);

    const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    const cut = texts(chunkDocument(plain(words), options));
    expect(cut.join(' ')).toBe(words);
    for (const chunk of cut) expect(chunk.length).toBeLessThanOrEqual(200);

    const word = 'z'.repeat(450);
    expect(texts(chunkDocument(plain(word), options)).map((c) => c.length)).toEqual([200, 200, 50]);
  });

  it('never cuts between the halves of a character outside the BMP', () => {
    const emoji = '😀'.repeat(150); // 300 UTF-16 units, no spaces
    const chunks = texts(chunkDocument(plain(emoji), options));
    expect(chunks.join('')).toBe(emoji);
    for (const chunk of chunks) expect(chunk.length % 2).toBe(0);
  });

  it('cuts after CJK full stops, which no space follows', () => {
    const text = '这是一个句子。'.repeat(60);
    for (const chunk of texts(chunkDocument(plain(text), options)))
      expect(chunk.endsWith('。')).toBe(true);
  });

  it('starts each later chunk of a section with the end of the one before, at a word', () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkDocument(plain(words), { size: 300, overlap: 60 });
    expect(chunks.length).toBeGreaterThan(3);
    for (let i = 1; i < chunks.length; i++) {
      const [before, chunk] = [chunks[i - 1]!, chunks[i]!];
      expect(chunk.start).toBeLessThan(before.end);
      expect(before.end - chunk.start).toBeLessThanOrEqual(60);
      expect(words.slice(chunk.start, before.end)).toMatch(/^word\d+( word\d+)*$/);
    }
  });

  it('gives chunks the heading path they are under', () => {
    const text = [
      'Intro text.',
      '# Guide',
      'Guide text.',
      '## Setup',
      '### Install',
      'Install text.',
      '## Use ##',
      'Use text.',
      '# Other',
      'Other text.',
    ].join('\n\n');
    const chunks = chunkDocument(markdown(text), { size: 200, overlap: 50 });
    expect(chunks.map((c) => [c.heading, c.text])).toEqual([
      [undefined, 'Intro text.'],
      ['Guide', '# Guide\n\nGuide text.'],
      // A heading with nothing under it but a deeper one opens that one's chunk.
      ['Guide › Setup › Install', '## Setup\n\n### Install\n\nInstall text.'],
      ['Guide › Use', '## Use ##\n\nUse text.'],
      ['Other', '# Other\n\nOther text.'],
    ]);
  });

  it('reads no heading inside a code fence, nor in plain text, nor without a space', () => {
    const text = '# Real\n\n```sh\n# a comment\n```\n\n#hashtag\n\n####### seven';
    expect(chunkDocument(markdown(text), options).map((c) => c.heading)).toEqual(['Real']);
    expect(chunkDocument(plain('# Title\n\nbody'), options)[0]!.heading).toBeUndefined();
  });

  it('puts a PDF chunk on the page it is on, never across two', () => {
    const page = (n: number) =>
      Array.from({ length: 12 }, (_, i) => `Page ${n} line ${i} says something.`).join('\n');
    const doc = pdf([page(1), '', page(3)]);
    const chunks = chunkDocument(doc, { size: 250, overlap: 40 });
    expect(new Set(chunks.map((c) => c.page))).toEqual(new Set([1, 3]));
    for (const chunk of chunks) {
      const span = doc.pages!.find((s) => s.page === chunk.page)!;
      expect(chunk.start).toBeGreaterThanOrEqual(span.start);
      expect(chunk.end).toBeLessThanOrEqual(span.end);
      expect(chunk.text).toMatch(
        new RegExp(`^(Page ${chunk.page} line \\d+ says something\\.\\s*)+$`),
      );
    }
  });

  it('gives nothing for a text of white space', () => {
    expect(chunkDocument(plain(' \n\n \t'), options)).toEqual([]);
    expect(chunkDocument(markdown(''), options)).toEqual([]);
  });

  it('keeps a huge line of one word linear', () => {
    const started = performance.now();
    const chunks = chunkDocument(plain('y'.repeat(2_000_000)), { size: 8000, overlap: 0 });
    expect(chunks).toHaveLength(250);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('chunkDocument: options it refuses', () => {
  it.each([
    [
      { size: 199, overlap: 0 },
      /size must be a whole number of characters from 200 to 8,000 \(it is 199\)/,
    ],
    [{ size: 8001, overlap: 0 }, /from 200 to 8,000/],
    [{ size: 500.5, overlap: 0 }, /size must be a whole number/],
    [{ size: Number.NaN, overlap: 0 }, /size must be/],
    [{ size: 1000, overlap: 500 }, /overlap must be .* under half its size \(500 of 1000\)/],
    [{ size: 1000, overlap: -1 }, /overlap must be/],
    [{ size: 1000, overlap: 1.5 }, /overlap must be/],
  ])('%j', (options, message) => {
    let error: unknown;
    try {
      chunkDocument(plain('text'), options);
    } catch (caught) {
      error = caught;
    }
    expect(isTrellisError(error, 'InvalidRequestError')).toBe(true);
    expect((error as Error).message).toMatch(message);
  });
});

describe('chunkDocument: invariants over random documents', () => {
  const WORDS = [
    'alpha',
    'beta',
    'gamma',
    'δέλτα',
    '世界',
    '😀',
    'x',
    'supercalifragilistic',
    'a-b',
  ];

  function randomDocument(seed: number): ExtractedDocument {
    const r = random(seed);
    const sentence = () => {
      const words = Array.from({ length: 1 + r.int(25) }, () => r.pick(WORDS));
      return words.join(r.next() < 0.9 ? ' ' : '  ') + r.pick(['.', '!', '?', '."', '。', '']);
    };
    const paragraph = () => {
      if (r.next() < 0.05) return 'q'.repeat(r.int(3000)) || 'q';
      const sentences = Array.from({ length: 1 + r.int(r.next() < 0.2 ? 60 : 6) }, sentence);
      return sentences.join(r.pick([' ', '\n', ' ']));
    };
    const blocks: string[] = [];
    for (let i = 0, n = r.int(30); i < n; i++) {
      if (r.next() < 0.25) blocks.push(`${'#'.repeat(1 + r.int(4))} ${r.pick(WORDS)} ${i}`);
      else blocks.push(paragraph());
    }
    const text = blocks.join(r.pick(['\n\n', '\n\n\n', '\n \n', '\n\t\n\n']));
    if (r.next() < 0.3) {
      const pages = blocks.map((block) => block.replace(/^#+ /, ''));
      if (pages.length > 1) pages[r.int(pages.length)] = '';
      return pdf(pages);
    }
    return r.next() < 0.7 ? markdown(text) : plain(text);
  }

  /** The heading path a chunk should carry: that of the last heading line before its end. */
  function expectedHeading(text: string, end: number): string | undefined {
    const path: { level: number; title: string }[] = [];
    for (const match of text.slice(0, end).matchAll(/^(#{1,6}) (.+)$/gm)) {
      const level = match[1]!.length;
      while (path.length > 0 && path.at(-1)!.level >= level) path.pop();
      path.push({ level, title: match[2]!.trim() });
    }
    return path.length > 0 ? path.map((part) => part.title).join(' › ') : undefined;
  }

  it('hold for 400 documents and option sets', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const doc = randomDocument(seed);
      const r = random(seed * 7919);
      const size = 200 + r.int(1200);
      const overlap = r.int(Math.ceil(size / 2));
      const chunks = chunkDocument(doc, { size, overlap });
      const where = `seed ${seed}, size ${size}, overlap ${overlap}`;
      const covered = new Uint8Array(doc.text.length);
      chunks.forEach((chunk, i) => {
        expect(doc.text.slice(chunk.start, chunk.end), where).toBe(chunk.text);
        expect(chunk.text.length, where).toBeLessThanOrEqual(size);
        expect(chunk.text.trim(), where).toBe(chunk.text);
        expect(chunk.text, where).not.toBe('');
        expect(/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(chunk.text), where).toBe(false);
        const before = chunks[i - 1];
        if (before) {
          expect(chunk.end, where).toBeGreaterThan(before.end);
          expect(chunk.start, where).toBeGreaterThanOrEqual(before.end - overlap);
        }
        if (doc.kind === 'markdown')
          expect(chunk.heading, where).toBe(expectedHeading(doc.text, chunk.end));
        else expect(chunk.heading, where).toBeUndefined();
        if (doc.pages) {
          const span = doc.pages.find((s) => s.page === chunk.page);
          expect(span, where).toBeDefined();
          expect(chunk.start >= span!.start && chunk.end <= span!.end, where).toBe(true);
        } else {
          expect(chunk.page, where).toBeUndefined();
        }
        covered.fill(1, chunk.start, chunk.end);
      });
      for (let i = 0; i < doc.text.length; i++)
        if (!covered[i] && doc.text[i]!.trim() !== '')
          throw new Error(
            `${where}: character ${i} (${JSON.stringify(doc.text[i])}) is in no chunk`,
          );
      expect(chunkDocument(doc, { size, overlap }), where).toEqual(chunks);
    }
  });
});

describe('chunkDocument: speed', () => {
  it('chunks 1 MB of Markdown in well under 100 ms', () => {
    const r = random(42);
    const parts: string[] = [];
    let length = 0;
    for (let i = 0; length < 1_000_000; i++) {
      const part =
        i % 12 === 0
          ? `## Section ${i}`
          : Array.from(
              { length: 3 + r.int(12) },
              () => Array.from({ length: 5 + r.int(15) }, () => 'lorem').join(' ') + '.',
            ).join(' ');
      parts.push(part);
      length += part.length + 2;
    }
    const doc = markdown(parts.join('\n\n'));
    expect(chunkDocument(doc, { size: 1000, overlap: 150 }).length).toBeGreaterThan(1000); // and warm up
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      chunkDocument(doc, { size: 1000, overlap: 150 });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.info(
      `chunked ${doc.text.length} characters in ${times[2]!.toFixed(1)} ms (median of 5)`,
    );
    expect(times[2]).toBeLessThan(100);
  });
});
