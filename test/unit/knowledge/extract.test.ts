// Reading documents into text for a knowledge base: text, Markdown, HTML and real PDFs (written
// by pdf-lib, read by pdf.js), and every way a document can fail to be read, each a clear error
// that names the file.

import { describe, expect, it } from 'vitest';
import { isTrellisError } from '../../../src/core/errors.ts';
import {
  DOCUMENT_LIMITS,
  extractDocument,
  extractText,
  kindOf,
} from '../../../src/knowledge/extract.ts';
import { htmlToText } from '../../../src/knowledge/html-text.ts';
import { makePdf } from '../../support/make-pdf.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
const file = (name: string, bytes: Uint8Array, type = '') => ({ name, type, bytes });

/** The error a promise or a call fails with (a test fails if it does not). */
async function failure(run: () => unknown): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

async function invalid(run: () => unknown, message: RegExp): Promise<void> {
  const error = await failure(run);
  expect(isTrellisError(error, 'InvalidRequestError'), String(error)).toBe(true);
  expect(error.message).toMatch(message);
}

describe('kindOf', () => {
  it.each([
    ['notes.txt', '', 'text'],
    ['server.LOG', '', 'text'],
    ['table.csv', 'text/csv', 'text'],
    ['README.md', '', 'markdown'],
    ['README.md', 'text/plain', 'markdown'],
    ['guide.markdown', 'application/octet-stream', 'markdown'],
    ['x', 'text/markdown', 'markdown'],
    ['page.htm', '', 'html'],
    ['page', 'text/html; charset=utf-8', 'html'],
    ['paper.pdf', '', 'pdf'],
    ['download', 'application/pdf', 'pdf'],
    ['script.py', 'text/x-python', 'text'],
    ['unnamed', 'text/plain', 'text'],
    ['photo.png', 'image/png', undefined],
    ['photo.png', '', undefined],
    ['data.json', 'application/json', undefined],
    ['archive.zip', 'application/octet-stream', undefined],
    ['no-extension', '', undefined],
  ])('%s (%j) is %s', (name, type, kind) => {
    expect(kindOf(name, type)).toBe(kind);
  });
});

describe('extractDocument: text and Markdown', () => {
  it('reads UTF-8 text as it is, line ends made \\n', async () => {
    const doc = await extractDocument(file('a.txt', utf8('Grüße, 世界 🌍\r\nline two\rthree')));
    expect(doc).toEqual({ kind: 'text', text: 'Grüße, 世界 🌍\nline two\nthree' });
  });

  it('drops a UTF-8 byte order mark', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('# Title')]);
    expect(await extractDocument(file('a.md', bytes))).toEqual({
      kind: 'markdown',
      text: '# Title',
    });
  });

  it('reads UTF-16 that says so with a byte order mark', async () => {
    const text = 'héllo wörld';
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) bytes[2 + 2 * i] = text.charCodeAt(i);
    expect((await extractDocument(file('w.txt', bytes))).text).toBe(text);
  });

  it('leaves the caller’s bytes as they were', async () => {
    const bytes = utf8('keep me\r\n');
    const copy = bytes.slice();
    await extractDocument(file('a.txt', bytes));
    expect(bytes).toEqual(copy);
  });
});

describe('extractDocument: what it refuses, each with a clear error naming the file', () => {
  it('a kind it does not read, saying which it does', async () => {
    await invalid(
      () => extractDocument(file('photo.png', new Uint8Array([0x89, 0x50]), 'image/png')),
      /"photo\.png" is not a kind of document .*\(image\/png\).*Markdown.*PDF/,
    );
  });

  it('an empty file, and one of only white space', async () => {
    await invalid(
      () => extractDocument(file('empty.txt', new Uint8Array())),
      /"empty\.txt" is empty/,
    );
    await invalid(
      () => extractDocument(file('blank.md', utf8(' \n\t\n'))),
      /"blank\.md" has no text/,
    );
  });

  it('a binary file', async () => {
    const bytes = new Uint8Array(4096).map((_, i) => (i % 7 === 0 ? 0 : 65 + (i % 26)));
    await invalid(() => extractDocument(file('blob.txt', bytes)), /"blob\.txt" is not a text file/);
  });

  it('bytes that are not UTF-8', async () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b]); // "café ok" in Latin-1
    await invalid(() => extractDocument(file('cafe.txt', latin1)), /"cafe\.txt" is not UTF-8 text/);
  });

  it('a file over the size limit, before reading any of it', async () => {
    const huge = new Uint8Array(DOCUMENT_LIMITS.maxBytes + 1);
    await invalid(
      () => extractDocument(file('huge.txt', huge)),
      /"huge\.txt" is 50\.0 MB: .* at most 50\.0 MB/,
    );
  });

  it('pasted text over the character limit', () => {
    const text = 'x'.repeat(DOCUMENT_LIMITS.maxChars + 1);
    expect(() => extractText('big', text)).toThrow(/"big" holds 20,000,001 characters/);
  });

  it('a Stop before it starts', async () => {
    const error = await failure(() =>
      extractDocument(file('a.txt', utf8('x')), { signal: AbortSignal.abort() }),
    );
    expect(error.name).toBe('AbortError');
  });
});

describe('extractText: pasted text', () => {
  it.each([
    ['# Notes\n\nSome text', 'markdown'],
    ['Intro\n\n```js\ncode\n```', 'markdown'],
    ['See [the docs](https://example.com/docs).', 'markdown'],
    ['- one\n- two\n', 'markdown'],
    ['Just a sentence. #hashtag is not a heading.', 'text'],
    ['- a single dash line', 'text'],
  ])('%j reads as %s', (text, kind) => {
    expect(extractText('Pasted', text)).toEqual({ kind, text });
  });

  it('takes the kind its name says, and HTML by name is read as HTML', () => {
    expect(extractText('notes.md', 'plain words').kind).toBe('markdown');
    expect(extractText('page.html', '<h1>T</h1><p>a</p>')).toEqual({
      kind: 'html',
      text: '# T\n\na',
    });
  });

  it('refuses empty text', () => {
    expect(() => extractText('Pasted', '   \n')).toThrow(/"Pasted" has no text/);
  });

  it('does not take seconds over a line of many brackets', () => {
    const started = performance.now();
    extractText('Pasted', '['.repeat(20_000) + ']('.repeat(5000));
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('HTML', () => {
  it('keeps what a reader sees: headings as Markdown lines, paragraphs, lists, entities', async () => {
    const html = `<!doctype html><html><head><title>Tab title</title>
      <style>body { color: red }</style><script>alert("x")</script></head>
      <body><nav>Home &amp; away</nav>
      <h1>Getting   started</h1><p>Install it with <code>npm&nbsp;i</code>.<br>Then run it.</p>
      <h2>Options <small>(all)</small></h2>
      <ul><li>fast</li><li>small &lt;10 kB&gt;</li></ul>
      <table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
      <pre>line 1
  indented</pre></body></html>`;
    const doc = await extractDocument(file('page.html', utf8(html), 'text/html'));
    expect(doc).toEqual({
      kind: 'html',
      text: [
        'Home & away',
        '# Getting started',
        'Install it with npm i.\nThen run it.',
        '## Options (all)',
        '- fast\n- small <10 kB>',
        'Name Value\na 1',
        'line 1\n  indented',
      ].join('\n\n'),
    });
  });

  it('drops scripts, styles, templates, event handlers and hidden content of a hostile page', () => {
    const text = htmlToText(`<p>safe</p>
      <img src=x onerror="alert('img')"><svg onload="alert(1)"><text>svg text</text></svg>
      <script>document.write("<p>injected</p>")</script><noscript>enable JS</noscript>
      <template><p>template</p></template><style>p{}</style>
      <iframe srcdoc="<p>framed</p>">frame text</iframe>
      <a href="javascript:alert(2)">a link</a><p>end</p><script>unclosed`);
    expect(text).toBe('safe\n\na link\n\nend');
  });

  it('keeps a heading on one line and drops an empty one', () => {
    expect(htmlToText('<h3>One<br>two<div>three</div></h3><h2> </h2><p>x</p>')).toBe(
      '### One two three\n\nx',
    );
  });

  it('reads a huge line of text in reasonable time', () => {
    const html = `<p>${'word '.repeat(400_000)}</p>`;
    const started = performance.now();
    const text = htmlToText(html);
    expect(text.length).toBe(5 * 400_000 - 1);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('PDF', () => {
  it('reads each page, with paragraphs, and says where each page is', async () => {
    const bytes = await makePdf([
      ['Page one title', '', 'First line of a paragraph', 'and its second line.'],
      ['The second page.'],
      [],
      ['Page four: the end.'],
    ]);
    const doc = await extractDocument(file('paper.pdf', bytes, 'application/pdf'));
    expect(doc.kind).toBe('pdf');
    expect(doc.text).toBe(
      'Page one title\n\nFirst line of a paragraph\nand its second line.\n\nThe second page.\n\nPage four: the end.',
    );
    expect(doc.pages?.map((span) => [span.page, doc.text.slice(span.start, span.end)])).toEqual([
      [1, 'Page one title\n\nFirst line of a paragraph\nand its second line.'],
      [2, 'The second page.'],
      [3, ''],
      [4, 'Page four: the end.'],
    ]);
  });

  it('wraps long lines into a paragraph that reads back as lines', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const doc = await extractDocument(file('long.pdf', await makePdf([[long]])));
    expect(doc.text.replace(/\n/g, ' ')).toBe(long);
  });

  it('refuses a PDF with no text: it may be scanned', async () => {
    await invalid(
      async () => extractDocument(file('scan.pdf', await makePdf([[], []]))),
      /"scan\.pdf" has no text to read: it may be scanned images/,
    );
  });

  it('refuses a damaged PDF, and bytes that are no PDF at all', async () => {
    const good = await makePdf([['Some text']]);
    await invalid(
      () => extractDocument(file('cut.pdf', good.slice(0, 200))),
      /"cut\.pdf" could not be read as a PDF/,
    );
    await invalid(
      () => extractDocument(file('fake.pdf', utf8('hello, I am not a PDF'))),
      /"fake\.pdf" could not be read as a PDF/,
    );
  });

  it('refuses a PDF that needs a password', async () => {
    await invalid(
      async () =>
        extractDocument(file('secret.pdf', await makePdf([['hidden']], { encrypted: true }))),
      /"secret\.pdf" is protected by a password/,
    );
  });

  it('stops when asked while it reads, with an AbortError, and a later read is whole', async () => {
    const bytes = await makePdf(Array.from({ length: 30 }, (_, i) => [`Page ${i + 1}`]));
    const controller = new AbortController();
    const reading = extractDocument(file('many.pdf', bytes), { signal: controller.signal });
    controller.abort();
    expect((await failure(() => reading)).name).toBe('AbortError');
    // A later read is not disturbed by the stopped one.
    expect((await extractDocument(file('many.pdf', bytes))).pages).toHaveLength(30);
  });

  it('looks for a Stop between pages, and reads no page after it', async () => {
    const bytes = await makePdf(Array.from({ length: 30 }, (_, i) => [`Page ${i + 1}`]));
    // A hand-written signal that is stopped from its fifth look on: the reader must look often
    // enough to stop early, not once at the end.
    let looks = 0;
    const reason = new DOMException('Stopped', 'AbortError');
    const signal = {
      get aborted() {
        return looks >= 5;
      },
      reason,
      throwIfAborted() {
        if (++looks >= 5) throw reason;
      },
      addEventListener() {},
      removeEventListener() {},
    } as unknown as AbortSignal;
    const error = await failure(() => extractDocument(file('many.pdf', bytes), { signal }));
    expect(error.name).toBe('AbortError');
    expect(looks).toBeLessThan(10);
  });

  it('leaves the caller’s bytes whole', async () => {
    const bytes = await makePdf([['Keep']]);
    const copy = bytes.slice();
    await extractDocument(file('keep.pdf', bytes));
    expect(bytes.byteLength).toBe(copy.byteLength);
    expect(bytes).toEqual(copy);
  });
});
