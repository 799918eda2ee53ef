// Attachments: which files a message can carry to which model, what an untyped file is, and the
// message they make.

import { describe, expect, it } from 'vitest';
import {
  attachmentKindOf,
  attachmentPolicy,
  attachmentProblems,
  type AttachmentFile,
} from '../../../src/models/attachments.ts';
import { base64ToBytes } from '../../../src/index.ts';
import { draftFile, draftProblems, sniff } from '../../../src/ui/chat/composer-files.ts';
import { attachmentName, userMessage } from '../../../workers/sessions/sessions.ts';

const MB = 1024 * 1024;
const file = (name: string, mimeType: string, size = 1000): AttachmentFile => ({
  name,
  mimeType,
  size,
});

describe('attachmentKindOf', () => {
  it.each([
    ['image/png', 'image'],
    ['image/JPEG', 'image'],
    ['image/webp', 'image'],
    ['image/gif', 'image'],
    ['application/pdf', 'pdf'],
    ['text/plain', 'text'],
    ['text/markdown; charset=utf-8', 'text'],
    ['text/csv', 'text'],
    ['application/json', 'text'],
    ['image/svg+xml', 'text'],
    ['application/ld+json', 'text'],
    ['image/heic', undefined],
    ['application/zip', undefined],
    ['application/octet-stream', undefined],
    ['', undefined],
  ])('%s is %s', (mimeType, kind) => {
    expect(attachmentKindOf(mimeType)).toBe(kind);
  });
});

describe('attachmentProblems', () => {
  const gemini = attachmentPolicy('gemini');
  const openai = attachmentPolicy('openai-compatible');

  it('lets through what the model takes', () => {
    const files = [
      file('a.png', 'image/png'),
      file('b.pdf', 'application/pdf'),
      file('c.md', 'text/markdown'),
    ];
    expect(attachmentProblems(files, gemini)).toEqual([]);
    expect(
      attachmentProblems(
        files.filter((f) => f.name !== 'b.pdf'),
        openai,
      ),
    ).toEqual([]);
  });

  it.each([
    [
      [file('b.pdf', 'application/pdf')],
      openai,
      /b\.pdf can't go to this OpenAI-compatible server: it takes images and text files, not PDFs/,
    ],
    [
      [file('x.zip', 'application/zip')],
      gemini,
      /x\.zip \(application\/zip\) can't be attached: only images/,
    ],
    [
      [file('big.png', 'image/png', 11 * MB)],
      gemini,
      /big\.png is 11 MB: the limit is 10 MB a file/,
    ],
    [[file('empty.txt', 'text/plain', 0)], gemini, /empty\.txt is empty/],
    [
      [file('a.png', 'image/png', 9 * MB), file('b.png', 'image/png', 9.5 * MB)],
      gemini,
      /These files come to 19 MB: a message can carry 18 MB at most/,
    ],
  ])('refuses %#, saying why', (files, policy, message) => {
    const problems = attachmentProblems(files, policy);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });
});

describe('sniff (a file the browser gave no type)', () => {
  const bytes = (...values: number[]) => new Blob([new Uint8Array(values)]);
  it.each([
    ['a PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a), 'image/png'],
    ['a JPEG', bytes(0xff, 0xd8, 0xff, 0xe0), 'image/jpeg'],
    ['a PDF', new Blob(['%PDF-1.7\n']), 'application/pdf'],
    ['a WebP', new Blob(['RIFF\0\0\0\0WEBPVP8 ']), 'image/webp'],
    ['source code', new Blob(['export const x = "café";\n']), 'text/plain'],
    ['bytes with NULs', bytes(1, 0, 2, 0), ''],
    ['invalid UTF-8', bytes(0xc3, 0x28, 0x41), ''],
  ])('%s is %s', async (_, blob, type) => {
    expect(await sniff(blob)).toBe(type);
  });

  it('does not take a character cut at the end of the slice it reads for an error', async () => {
    const text = 'é'.repeat(5000); // 10,000 bytes: the 8,192-byte slice ends inside none, or one
    expect(await sniff(new Blob([`${text}x${text}`]))).toBe('text/plain');
  });
});

describe('userMessage', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

  it('is the text, then each file as inlineData named by its file name', () => {
    const message = userMessage(
      '  Look at this  ',
      [
        { name: 'cat.png', mimeType: 'image/png', bytes: png },
        { name: 'notes.txt', mimeType: 'text/plain', bytes: new TextEncoder().encode('hi') },
      ],
      attachmentPolicy('gemini'),
    );
    expect(message.role).toBe('user');
    expect(message.parts[0]).toEqual({ text: 'Look at this' });
    expect(message.parts[1]!.inlineData).toMatchObject({
      mimeType: 'image/png',
      displayName: 'cat.png',
    });
    expect(base64ToBytes(message.parts[1]!.inlineData!.data)).toEqual(png);
    expect(new TextDecoder().decode(base64ToBytes(message.parts[2]!.inlineData!.data))).toBe('hi');
  });

  it('may be files alone', () => {
    const message = userMessage(
      '',
      [{ name: 'a.png', mimeType: 'image/png', bytes: png }],
      attachmentPolicy('gemini'),
    );
    expect(message.parts).toHaveLength(1);
  });

  it('refuses what the agent cannot take, so that a page that skipped the check sends nothing', () => {
    expect(() =>
      userMessage(
        'read',
        [{ name: 'a.pdf', mimeType: 'application/pdf', bytes: png }],
        attachmentPolicy('openai-compatible'),
      ),
    ).toThrow(/a\.pdf can't go to this OpenAI-compatible server/);
  });

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\ada\\report.pdf', 'report.pdf'],
    ['bad\u0000name\u001f.txt', 'badname.txt'],
    ['user:shared.txt', 'attachment-user:shared.txt'],
    ['', 'attachment'],
    ['x'.repeat(500), 'x'.repeat(120)],
  ])('names %j %j', (name, expected) => {
    expect(attachmentName(name)).toBe(expected);
  });
});

describe('files held for the next message', () => {
  it('are checked as they are attached: those the agent cannot take are named and marked', async () => {
    const pdf = await draftFile(new File(['%PDF-1.7'], 'paper.pdf', { type: 'application/pdf' }));
    const notes = await draftFile(new File(['Buy milk.'], 'notes.txt', { type: 'text/plain' }));
    const openai = draftProblems([pdf, notes], attachmentPolicy('openai-compatible'));
    expect(openai.problems).toEqual([
      "paper.pdf can't go to this OpenAI-compatible server: it takes images and text files, not PDFs.",
    ]);
    expect([...openai.refused]).toEqual([pdf.id]);
    expect(draftProblems([pdf, notes], attachmentPolicy('gemini'))).toEqual({
      problems: [],
      refused: new Set(),
    });
    // An agent that takes no files refuses every one.
    expect([...draftProblems([pdf, notes], undefined).refused]).toEqual([pdf.id, notes.id]);
    expect(draftProblems([], undefined).problems).toEqual([]);
  });
});
