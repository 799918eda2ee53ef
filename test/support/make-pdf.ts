// Real PDFs for tests, written with pdf-lib: pages of given lines in Helvetica (WinAnsi text only:
// pdf-lib's standard fonts cannot draw other scripts). A page given no lines has no text at all,
// only a grey box, as a scanned page holds an image and no text. An empty line leaves a line's
// gap, so the lines around it read as two paragraphs; a line too wide for the page wraps.
//
// `encrypted` marks the file as needing a password nobody knows (an /Encrypt dictionary whose
// check fails for the empty password), which pdf.js refuses as it would a protected file.

import { PDFDocument, PDFHexString, PDFName, StandardFonts, rgb } from 'pdf-lib';

export interface MakePdfOptions {
  /** Points; 12 unless given. */
  fontSize?: number;
  encrypted?: boolean;
}

const PAGE = { width: 612, height: 792, margin: 56 } as const;

/** A PDF whose pages hold `pages[i]`'s lines, top to bottom. */
export async function makePdf(
  pages: readonly (readonly string[])[],
  options: MakePdfOptions = {},
): Promise<Uint8Array> {
  const fontSize = options.fontSize ?? 12;
  const leading = fontSize * 1.35;
  const doc = await PDFDocument.create();
  // Fixed dates: the same pages write the same bytes.
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const width = PAGE.width - 2 * PAGE.margin;
  for (const lines of pages) {
    const page = doc.addPage([PAGE.width, PAGE.height]);
    if (lines.length === 0) {
      page.drawRectangle({
        x: PAGE.margin,
        y: PAGE.margin,
        width,
        height: PAGE.height - 2 * PAGE.margin,
        color: rgb(0.85, 0.85, 0.85),
      });
      continue;
    }
    let y = PAGE.height - PAGE.margin - fontSize;
    for (const line of lines.flatMap((line) =>
      wrap(line, (text) => font.widthOfTextAtSize(text, fontSize), width),
    )) {
      if (y < PAGE.margin) throw new Error(`makePdf: too many lines for one page (at "${line}")`);
      if (line !== '') page.drawText(line, { x: PAGE.margin, y, size: fontSize, font });
      y -= leading;
    }
  }
  if (options.encrypted) markEncrypted(doc);
  return doc.save({ useObjectStreams: false });
}

/** `line` as lines no wider than `width`, broken at spaces (a word wider than that stays whole). */
function wrap(line: string, widthOf: (text: string) => number, width: number): string[] {
  if (line === '' || widthOf(line) <= width) return [line];
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const next = current === '' ? word : `${current} ${word}`;
    if (current !== '' && widthOf(next) > width) {
      lines.push(current);
      current = word;
    } else {
      current = next;
    }
  }
  lines.push(current);
  return lines;
}

/** The standard security handler (revision 2) with check values no password opens. */
function markEncrypted(doc: PDFDocument): void {
  const { context } = doc;
  const filler = PDFHexString.of('0123456789abcdef'.repeat(4));
  const encrypt = context.obj({
    Filter: PDFName.of('Standard'),
    V: 1,
    R: 2,
    O: filler,
    U: filler,
    P: -44,
  });
  context.trailerInfo.Encrypt = context.register(encrypt);
  const id = PDFHexString.of('00112233445566778899aabbccddeeff');
  context.trailerInfo.ID = context.obj([id, id]);
}
