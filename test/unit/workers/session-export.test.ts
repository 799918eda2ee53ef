// Share and export (Node over fake-indexeddb): a real session of the offline state keeper, with
// a rewound branch, a file and an image, exported as standalone HTML, as Markdown and as JSON,
// whole and as a range of turns. The HTML holds no script and no markup from the session, only
// the conversation as it is now with the rewound branch collapsed where it branched; a range's
// JSON imports as a session of its own; a bad range is refused and changes nothing; no key ever
// leaves.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import { AppExports } from '../../../workers/sessions/session-exports.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { exportFile, type ExportRuntime } from '../../../src/ui/export/export-file.ts';
import { EXPORT_CSP } from '../../../src/ui/export/export-html.ts';
import type { ExportRequest } from '../../../workers/protocol.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  ),
  (c) => c.charCodeAt(0),
);

const HOSTILE_TITLE = '<script>alert(1)</script></style></title><img src=x onerror=alert(2)>';

async function session() {
  const dbName = freshDbName();
  const runtime = new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: () => {},
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
  const exports = AppExports.open({ dbName });
  const { id } = await runtime.createSession('state-keeper', 'Colours & <notes>');
  const send = (text: string, attachments: Parameters<typeof runtime.runs.send>[3] = []) =>
    runtime.runs.send(id, text, () => {}, attachments);
  await send('set color to red');
  await send('set color to blue');
  // Rewind before "blue": it stays in the log as a branch; "green" takes its place.
  const [, blue] = await exports.turns(id);
  await runtime.rewinds.rewind(id, blue!.invocationId);
  await send('set color to green', [{ name: 'dot.png', mimeType: 'image/png', bytes: PNG }]);
  await send('save notes.txt as buy milk');
  await send('set note to **bold** and `code`');
  const api: ExportRuntime = {
    exportSource: (sessionId) => exports.source(sessionId),
    exportSession: (sessionId) => runtime.exportSession(sessionId),
    exportRange: (sessionId, range) => exports.range(sessionId, range),
  };
  const file = (request: ExportRequest) =>
    exportFile(api, id, request, { agentName: 'State keeper', now: Date.UTC(2026, 10, 27, 12) });
  return { runtime, exports, id, file, send };
}

/** Every tag the HTML has, by name: the renderer's own, never one from the session. */
const tagsOf = (html: string) =>
  new Set([...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase()));

const ALLOWED_TAGS = new Set(
  'html head meta title style body header h1 h2 p main section span time div details summary code pre strong em a figure img figcaption footer ul ol li br hr blockquote table thead tbody tr th td del h3 h4 h5 h6'.split(
    ' ',
  ),
);

/**
 * The attributes of every tag, read as a browser would: each tag is well formed (quoted values,
 * so no value spills into another attribute), none is an event handler, and links and images
 * are only what the renderer allows.
 */
function attributeProblems(html: string): string[] {
  const problems: string[] = [];
  for (const [tag] of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
    const attributes = /^<[a-zA-Z][a-zA-Z0-9-]*((?:\s+[a-zA-Z-]+(?:="[^"]*")?)*)\s*>$/.exec(tag);
    if (!attributes) {
      problems.push(`malformed ${tag.slice(0, 60)}`);
      continue;
    }
    for (const [, name, value = ''] of attributes[1]!.matchAll(/\s+([a-zA-Z-]+)(?:="([^"]*)")?/g)) {
      if (/^on/i.test(name!)) problems.push(`handler ${name} in ${tag.slice(0, 60)}`);
      if (name === 'href' && !/^(https?:|mailto:)/.test(value)) problems.push(`link ${value}`);
      if (name === 'src' && !/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*$/.test(value))
        problems.push(`image ${value.slice(0, 40)}`);
    }
  }
  return problems;
}

describe('a session exported as HTML', () => {
  it('is one page with no script, a strict policy, the conversation as it is now and the rewound branch collapsed', async () => {
    const { file } = await session();
    const { filename, text: html, type } = await file({ format: 'html' });
    expect(filename).toBe('colours-notes-2026-11-27.html');
    expect(type).toBe('text/html;charset=utf-8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
    // The policy comes before anything the page holds.
    const head = html.slice(0, html.indexOf('<title>'));
    expect(head).toContain(`<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`);
    expect(EXPORT_CSP).toMatch(/default-src 'none'/);
    expect([...tagsOf(html)].filter((tag) => !ALLOWED_TAGS.has(tag))).toEqual([]);
    expect(attributeProblems(html)).toEqual([]);
    // Light and dark from the reader's system.
    expect(html).toMatch(/@media \(prefers-color-scheme: dark\)/);

    // The active turns in order, numbered; "blue" only inside the collapsed branch before turn 2.
    const main = html.slice(html.indexOf('<main>'), html.indexOf('</main>'));
    const order = ['set color to red', 'set color to green', 'save notes.txt', 'set note to'];
    const at = order.map((text) => main.indexOf(text));
    expect(at.every((i, n) => i > 0 && (n === 0 || i > at[n - 1]!))).toBe(true);
    expect(main.match(/<section class="turn" id="turn-\d+"/g)).toHaveLength(4);
    const turn2 = main.slice(main.indexOf('id="turn-2"'), main.indexOf('id="turn-3"'));
    expect(turn2).toMatch(
      /<details class="branches"><summary>1 rewound version of this turn<\/summary>[\s\S]*set color to blue[\s\S]*<\/details>/,
    );
    const branches = /<details class="branches">[\s\S]*?<\/div>\n<\/details>/.exec(main)![0];
    expect(main.replace(branches, '')).not.toContain('set color to blue');

    // Markdown rendered, tool calls collapsed, the image inline, the saved file's text, usage.
    expect(main).toContain('<strong>bold</strong>');
    expect(main).toContain('<code>code</code>');
    expect(main).toMatch(/<details class="tool">\s*<summary><code>set_state<\/code>/);
    expect(main).toMatch(/<img src="data:image\/png;base64,iVBORw0KGgo[^"]*" alt="dot.png">/);
    expect(main).toMatch(/<summary>notes\.txt \(version 0\)<\/summary>\s*<pre><code>buy milk/);
    expect(html).toMatch(
      /<footer>\s*<p>Exported from Trellis on <time datetime="2026-11-27T12:00:00.000Z">/,
    );
  });

  it('never turns the session’s strings into markup: title, messages, links, state, file names', async () => {
    const { runtime, id, send, file } = await session();
    await runtime.renameSession(id, HOSTILE_TITLE);
    await send('set <b>k</b> to <img src=x onerror=alert(3)> [x](javascript:alert(4))');
    await send(
      'hello </style><script>alert(5)</script> ![p](data:text/html,<script>alert(6)</script>)',
      [{ name: '"><b onmouseover=alert(7)>.png', mimeType: 'image/png', bytes: PNG }],
    );
    // A state edit is a note in the conversation, with its key and value.
    await runtime.stateEdits.editState(id, { '<i>key</i>': '</p><script>alert(8)</script>' });
    const { text: html } = await file({ format: 'html' });
    expect(html).toContain('<p class="note">State edited: &#60;i&#62;key&#60;/i&#62;');
    // Said as text, never as a tag, a link or an image.
    expect(html).not.toMatch(/<script|<img src=x|<b>k|="javascript:|="data:text/i);
    expect(html).toContain('[x](javascript:alert(4))');
    expect([...tagsOf(html)].filter((tag) => !ALLOWED_TAGS.has(tag))).toEqual([]);
    expect(attributeProblems(html)).toEqual([]);
    // One <style>, ours, and its end is ours.
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    expect(html).toContain('<title>&#60;script&#62;alert(1)&#60;/script&#62;&#60;/style&#62;');
    expect(html).toContain('alt="&#34;&#62;&#60;b onmouseover=alert(7)&#62;.png"');
  });
});

describe('a session exported as Markdown', () => {
  it('has the active turns, the rewound branch quoted where it branched, answers as Markdown and plain text escaped', async () => {
    const { runtime, id, send, file } = await session();
    await runtime.renameSession(id, HOSTILE_TITLE);
    await send('set x to <img src=x onerror=alert(1)> [y](javascript:alert(2))');
    const { filename, text: md } = await file({ format: 'markdown' });
    expect(filename).toMatch(/^script-alert-1-script-style-title-[a-z0-9-]+-2026-11-27\.md$/);
    expect(md).toMatch(/^# &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    expect(md).toMatch(/## Turn 1 · /);
    expect(md).toContain('**You:**\n\nset color to red');
    expect(md).toMatch(
      /\*1 rewound version of this turn:\*\n\n> \*\*Rewound turn · [^\n]*\*\*\n>[\s\S]*> set color to blue/,
    );
    expect(md).toContain('note is now **bold** and `code`');
    expect(md).toContain('*Attached:* dot.png (image/png)');
    // Nothing from the session is HTML or a live link in a viewer (code blocks show text).
    const outsideCode = md.replace(/^((?:> ?)*)```json\n[\s\S]*?\n\1```$/gm, '');
    expect(outsideCode).not.toMatch(/<img|<script|(?<!\\)\]\(javascript:/i);
    expect(outsideCode).toContain('[y]\\(javascript:alert(2))');
    expect(md).toMatch(/```json\n\{\n {2}"key": "color"/);
  });
});

describe('rewound branches', () => {
  it('shows each rewound turn once, where it branched, a branch of a branch inside it, and what was rewound at the end after the last turn', async () => {
    const { runtime, exports, id, send, file } = await session();
    const lastTurn = async () => (await exports.turns(id)).at(-1)!.invocationId;
    const rewindLast = async () => runtime.rewinds.rewind(id, await lastTurn());
    // Turn 4 "set note…" rewound; "one", "two"; "two" rewound, "three"; then "one" (with its
    // branches) rewound, and "four" sent: turn 4 has two other versions, the second forking.
    await rewindLast();
    await send('set one to 1');
    const one = await lastTurn();
    await send('set two to 2');
    await rewindLast();
    await send('set three to 3');
    await runtime.rewinds.rewind(id, one);
    await send('set four to 4');
    await send('set five to 5');
    await rewindLast();
    const { text: html } = await file({ format: 'html' });
    const main = html.slice(html.indexOf('<main>'), html.indexOf('</main>'));
    for (const text of [
      'set note to',
      'set one to 1',
      'set two to 2',
      'set three to 3',
      'set four to 4',
      'set five to 5',
    ])
      expect(main.split(`<p class="plain">${text}`).length - 1, text).toBe(1);
    expect(main.match(/<section class="turn" id=/g)).toHaveLength(4);
    const turn4 = main.slice(main.indexOf('id="turn-4"'));
    expect(turn4).toMatch(
      /^[^]*?<summary>2 rewound versions of this turn<\/summary>[^]*set note to[^]*set one to 1[^]*<summary>1 rewound version of this turn<\/summary>[^]*set two to 2[^]*set three to 3[^]*set four to 4[^]*<summary>1 rewound version after the last turn<\/summary>[^]*set five to 5/,
    );
  });
});

describe('a range of turns', () => {
  it('exports only those turns in HTML and Markdown, said as a range', async () => {
    const { exports, id, file } = await session();
    const turns = await exports.turns(id);
    expect(turns.map((turn) => turn.text)).toEqual([
      'set color to red',
      'set color to green',
      'save notes.txt as buy milk',
      'set note to **bold** and `code`',
    ]);
    const range = { from: turns[1]!.invocationId, to: turns[2]!.invocationId };
    const { filename, text: html } = await file({ format: 'html', range });
    expect(filename).toBe('colours-notes-turns-2-3-2026-11-27.html');
    expect(html).toContain('<h1>Colours &#38; &#60;notes&#62; (turns 2–3)</h1>');
    expect(html).toContain('turns 2–3 of 4');
    expect(html.match(/id="turn-\d+"/g)).toEqual(['id="turn-2"', 'id="turn-3"']);
    expect(html).not.toContain('set color to red');
    // Turn 2's other version is part of the range.
    expect(html).toContain('set color to blue');
    const { text: md } = await file({ format: 'markdown', range });
    expect(md.match(/^## Turn \d+/gm)).toEqual(['## Turn 2', '## Turn 3']);
  });

  it('as JSON is a session file of those turns that imports as a session of its own', async () => {
    const { runtime, exports, id, file } = await session();
    const turns = await exports.turns(id);
    const range = { from: turns[1]!.invocationId, to: turns[2]!.invocationId };
    const { filename, text } = await file({ format: 'json', range });
    expect(filename).toBe('colours-notes-turns-2-3-2026-11-27.trellis.json');
    const parsed = JSON.parse(text);
    // No marker and no rewound branch: the conversation as it reads.
    expect(
      parsed.events.some((e: { actions: object }) => 'rewindBeforeInvocationId' in e.actions),
    ).toBe(false);
    expect(parsed.state).toEqual({ color: 'red' });
    const imported = await runtime.importSession(text);
    expect(imported.title).toBe('Colours & <notes> (turns 2–3)');
    const copy = await exports.turns(imported.id);
    expect(copy.map((turn) => turn.text)).toEqual([
      'set color to green',
      'save notes.txt as buy milk',
    ]);
    const opened = await runtime.openSession(imported.id);
    expect(opened.state).toMatchObject({ color: 'green' });
    expect(await runtime.loadArtifact(imported.id, 'notes.txt')).toEqual({ text: 'buy milk' });
  });

  it('is refused, changing nothing, when it ends before it starts or names a turn not in the conversation', async () => {
    const { runtime, exports, id, file } = await session();
    const turns = await exports.turns(id);
    const before = await runtime.listSessions();
    const backwards = { from: turns[2]!.invocationId, to: turns[1]!.invocationId };
    for (const format of ['html', 'markdown', 'json'] as const) {
      const error = await rejectionOf(file({ format, range: backwards }));
      expect(error).toMatchObject({
        name: 'InvalidRequestError',
        message: /ends before it starts/,
      });
    }
    const rewound = (await exports.source(id)).events.find((e) =>
      JSON.stringify(e.content ?? '').includes('set color to blue'),
    )!.invocationId;
    const error = await rejectionOf(
      exports.range(id, { from: rewound, to: turns[3]!.invocationId }),
    );
    expect(error).toMatchObject({
      name: 'InvalidRequestError',
      message: /not in the conversation/,
    });
    expect(await runtime.listSessions()).toEqual(before);
  });
});

describe('what an export holds', () => {
  it('never a key: no provider, no setting, only the session', async () => {
    const { runtime, exports, id, file } = await session();
    await runtime.providers.save({
      kind: 'openai-compatible',
      name: 'Mine',
      baseUrl: 'http://127.0.0.1:9/v1',
      defaultModel: 'm',
      apiKey: 'sk-very-secret-key-123',
    });
    const source = JSON.stringify(await exports.source(id));
    for (const text of [
      source,
      (await file({ format: 'html' })).text,
      (await file({ format: 'markdown' })).text,
    ]) {
      expect(text).not.toContain('sk-very-secret');
      expect(text).not.toContain('127.0.0.1:9');
    }
  });

  it('refuses a session on an ADK server or one that does not exist', async () => {
    const { exports } = await session();
    await expect(exports.source('adk:s:app:x')).rejects.toMatchObject({
      name: 'InvalidRequestError',
    });
    await expect(exports.source('nope')).rejects.toMatchObject({ name: 'SessionNotFoundError' });
  });
});
