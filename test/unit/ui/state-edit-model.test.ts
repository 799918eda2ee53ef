// The page's side of state edits: the editor's changes, what a typed value means, and how the
// chat shows an edit (a note, not a user's bubble).

import { describe, expect, it } from 'vitest';
import { createEvent } from '../../../src/index.ts';
import { createStateEditEvent } from '../../../src/core/state-edit.ts';
import { chatItems } from '../../../src/ui/chat/chat-model.ts';
import {
  NO_CHANGES,
  editorRows,
  keyProblem,
  parseValue,
  withChange,
  withoutChange,
} from '../../../src/ui/state/state-edit-model.ts';

describe('the state editor', () => {
  const base = { color: 'red', size: 3, 'user:name': 'Ada', 'temp:x': 1 };

  it('lists the keys with the changes applied, saying how each changed', () => {
    let changes = withChange(base, NO_CHANGES, 'color', 'blue');
    changes = withChange(base, changes, 'size', null);
    changes = withChange(base, changes, 'added', [1]);
    expect(
      editorRows(base, changes).map(({ key, status, preview }) => [key, status, preview.text]),
    ).toEqual([
      ['added', 'added', '[1]'],
      ['color', 'changed', 'blue'],
      ['size', 'removed', '3'],
      ['user:name', 'same', 'Ada'],
    ]);
  });

  it('drops a change back to the value the state had, and undoes one', () => {
    const changed = withChange(base, NO_CHANGES, 'color', 'blue');
    expect(withChange(base, changed, 'color', 'red')).toEqual({});
    expect(withChange(base, NO_CHANGES, 'missing', null)).toEqual({});
    expect(withoutChange(changed, 'color')).toEqual({});
  });

  it('keeps a key named __proto__ as an own key', () => {
    const changes = withChange({}, NO_CHANGES, '__proto__', 'x');
    expect(Object.getOwnPropertyDescriptor(changes, '__proto__')?.value).toBe('x');
    expect(editorRows({}, changes).map((row) => [row.key, row.status])).toEqual([
      ['__proto__', 'added'],
    ]);
  });

  it.each([
    // The hint quotes the value typed, not an example of another.
    ['red', /^Not JSON \(.*\)\. A text needs quotes: "red"\.$/],
    [' light green ', /A text needs quotes: "light green"\.$/],
    ['3 apples', /A text needs quotes: "3 apples"\.$/],
    ['say "hi"', /A text needs quotes: "say \\"hi\\""\.$/],
    ['', /Type a value as JSON/],
    // Broken JSON is not a text to quote.
    ['{"a": ', /^Not JSON \([^)]*\)\.$/],
    ['[1, 2', /^Not JSON \([^)]*\)\.$/],
    ['null', /null removes a key/],
  ])('says what is wrong with the value %j', (text, problem) => {
    const parsed = parseValue(text);
    expect('problem' in parsed && parsed.problem).toMatch(problem);
  });

  it('reads JSON values', () => {
    expect(parseValue('"blue"')).toEqual({ value: 'blue' });
    expect(parseValue(' {"a": [1, true]} ')).toEqual({ value: { a: [1, true] } });
  });

  it('refuses empty and temp: keys', () => {
    expect(keyProblem('')).toMatch(/cannot be empty/);
    expect(keyProblem('  ')).toMatch(/cannot be empty/);
    expect(keyProblem('temp:x')).toMatch(/never stored/);
    expect(keyProblem('constructor')).toBeUndefined();
  });
});

describe('a state edit in the chat', () => {
  it('is a note saying what changed, not a message of the user', () => {
    const message = createEvent({
      invocationId: 'i1',
      author: 'user',
      content: { role: 'user', parts: [{ text: 'hi' }] },
    });
    const edit = createStateEditEvent({ color: 'blue', size: null });
    const unmarked = createEvent({
      invocationId: 'i0',
      author: 'user',
      actions: { stateDelta: { a: 1 } },
    });
    const items = chatItems([unmarked, message, edit]);
    expect(items.map((item) => item.kind)).toEqual(['message', 'note']);
    expect(items[1]).toMatchObject({ text: 'State edited: color = blue, size removed' });
  });
});
