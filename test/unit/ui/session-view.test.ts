// What the panels draw from a session's opening (its state, the end of its active conversation,
// the end of its active path), never from its whole log: History's rows and branches, Chat's
// earlier messages, the approvals and a flow's checkpoints.

import { describe, expect, it } from 'vitest';
import {
  InMemorySessionService,
  createEvent,
  createUserContent,
  type Event,
  type Session,
} from '../../../src/index.ts';
import type { OpeningLimits, SessionOpening } from '../../../workers/protocol.ts';
import { historyRows } from '../../../src/ui/history/history-model.ts';
import { openingCheckpoints, sessionView } from '../../../src/ui/workbench/session-view.ts';

const appName = 'app';
const userId = 'ada';

/** A session driven through the in-memory service, opened as the worker opens one. */
async function conversation() {
  const service = new InMemorySessionService();
  const session: Session = await service.createSession({ appName, userId });
  const key = { appName, userId, sessionId: session.id };
  const append = (event: Event) => service.appendEvent({ session, event });
  return {
    /** A turn: the user's message and the agent's answer, with a state change. */
    async say(invocationId: string, text: string) {
      await append(createEvent({ invocationId, author: 'user', content: createUserContent(text) }));
      await append(
        createEvent({
          invocationId,
          author: 'agent',
          content: { role: 'model', parts: [{ text: `ok: ${text}` }] },
          actions: { stateDelta: { last: text } },
        }),
      );
    },
    append,
    rewind: async (invocationId: string) =>
      (await service.rewindSession({ ...key, rewindBeforeInvocationId: invocationId }))
        .invocationId,
    /** Switches to the branch of a turn off the active path, as the worker does. */
    async switchTo(invocationId: string) {
      const marker = await service.getSwitchMarker({ ...key, invocationId });
      await service.rewindSession({ ...key, rewindBeforeInvocationId: marker });
    },
    async open(limits: OpeningLimits = {}): Promise<SessionOpening> {
      const { session: opened, ...rest } = (await service.getSessionSummary({
        ...key,
        ...limits,
      }))!;
      const summary = { id: opened.id, title: 't', agentId: 'a', createdAt: 0, lastUpdateTime: 0 };
      return { summary, state: { ...opened.state }, ...rest, artifacts: [] };
    },
  };
}

const shape = (opening: SessionOpening) =>
  historyRows(opening).map((row) => [
    row.text,
    row.active ? 'active' : 'branch',
    row.indent,
    row.operations.switchToBranch?.invocationId,
  ]);

describe('History rows from an opening', () => {
  it('shows a branch just left under the tip, and switching back brings its turns back', async () => {
    const c = await conversation();
    await c.say('red', 'set color to red');
    await c.say('blue', 'set color to blue');
    await c.say('large', 'set size to large');
    await c.rewind('blue');
    expect(shape(await c.open())).toEqual([
      ['set color to red', 'active', 0, undefined],
      ['set color to blue', 'branch', 1, 'blue'],
    ]);

    // A new turn forks: the branch (by its first turn) comes first, then the conversation.
    await c.say('green', 'set color to green');
    expect(shape(await c.open())).toEqual([
      ['set color to red', 'active', 0, undefined],
      ['set color to blue', 'branch', 1, 'blue'],
      ['set color to green', 'active', 0, undefined],
    ]);

    await c.switchTo('blue');
    expect(shape(await c.open())).toEqual([
      ['set color to red', 'active', 0, undefined],
      ['set color to green', 'branch', 1, 'green'],
      ['set color to blue', 'active', 0, undefined],
      ['set size to large', 'active', 0, undefined],
    ]);
  });

  it('lists other roots when the path starts at the first turn, and offers earlier turns otherwise', async () => {
    const c = await conversation();
    await c.say('a', 'first');
    await c.rewind('a');
    for (const id of ['b', 'c', 'd', 'e']) await c.say(id, `turn ${id}`);
    expect(shape(await c.open())).toEqual([
      ['first', 'branch', 1, 'a'],
      ['turn b', 'active', 0, undefined],
      ['turn c', 'active', 0, undefined],
      ['turn d', 'active', 0, undefined],
      ['turn e', 'active', 0, undefined],
    ]);
    const end = await c.open({ numTurns: 2 });
    expect(shape(end)).toEqual([
      ['turn d', 'active', 0, undefined],
      ['turn e', 'active', 0, undefined],
    ]);
    expect(sessionView(end).earlierTurns).toBe(true);
    expect(sessionView(await c.open()).earlierTurns).toBe(false);
  });

  it('gives each turn its operations: rewind, fork, and edit for the user’s text', async () => {
    const c = await conversation();
    await c.say('a', 'hello');
    await c.append(
      createEvent({ invocationId: 'q', author: 'agent', content: createUserContent('auto') }),
    );
    const [user, agent] = historyRows(await c.open());
    expect(user!.operations).toEqual({
      rewindBefore: { rewindBeforeInvocationId: 'a' },
      fork: { atInvocationId: 'a' },
      edit: { invocationId: 'a', text: 'hello' },
    });
    expect(agent!.operations.edit).toBeUndefined();
  });
});

describe('Chat and approvals from the active tail', () => {
  it('draws the tail and says when earlier messages are left to read', async () => {
    const c = await conversation();
    for (let i = 0; i < 5; i++) await c.say(`t${i}`, `message ${i}`);
    const view = sessionView(await c.open({ numActiveEvents: 4 }));
    expect(view.chat.map((item) => item.kind === 'message' && item.text)).toEqual([
      'message 3',
      'ok: message 3',
      'message 4',
      'ok: message 4',
    ]);
    expect(view.earlierMessages).toBe(true);
    expect(sessionView(await c.open()).earlierMessages).toBe(false);
    expect(view.state).toEqual(sessionView(await c.open()).state);
  });

  it('shows a confirmation request in the tail until it is answered', async () => {
    const c = await conversation();
    await c.say('t0', 'publish');
    const call = {
      id: 'req-1',
      name: 'adk_request_confirmation',
      args: {
        originalFunctionCall: { id: 'c1', name: 'publish', args: { title: 'tea' } },
        toolConfirmation: { hint: 'Publish it?', confirmed: false },
      },
    };
    await c.append(
      createEvent({
        invocationId: 't0',
        author: 'publisher',
        content: { role: 'model', parts: [{ functionCall: call }] },
        longRunningToolIds: ['req-1'],
      }),
    );
    expect(sessionView(await c.open()).approvals).toMatchObject([
      { requestId: 'req-1', toolName: 'publish', hint: 'Publish it?' },
    ]);
    await c.append(
      createEvent({
        invocationId: 't0',
        author: 'user',
        content: {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'req-1',
                name: 'adk_request_confirmation',
                response: { confirmed: true },
              },
            },
          ],
        },
      }),
    );
    expect(sessionView(await c.open()).approvals).toEqual([]);
  });
});

describe('checkpoints from the tail', () => {
  it('starts at the first turn that begins in the tail, on top of the state before it', async () => {
    const c = await conversation();
    await c.say('t0', 'first');
    await c.append(
      createEvent({
        invocationId: 't1',
        author: 'user',
        content: createUserContent('run the flow'),
      }),
    );
    await c.append(
      createEvent({
        invocationId: 't1',
        author: 'flow',
        actions: { agentState: { current_node: 'draft', step: 1 } },
      }),
    );
    await c.append(
      createEvent({
        invocationId: 't1',
        author: 'flow',
        actions: { agentState: { completed_node: 'draft' }, stateDelta: { draft: 'x' } },
      }),
    );
    // Three events of the tail: the flow's turn and the agent's answer before it, cut in half.
    const opening = await c.open({ numActiveEvents: 4 });
    const withStart = { ...opening, tailStart: { seq: 2, state: { last: 'first' } } };
    expect(openingCheckpoints(withStart, { running: false })).toMatchObject([
      { node: 'draft', status: 'done', stateAfter: { last: 'first', draft: 'x' } },
    ]);
    // No turn begins in an incomplete tail: nothing to start from.
    const { tailStart: _, ...without } = withStart;
    expect(openingCheckpoints(without, { running: false })).toEqual([]);
  });
});

describe('Message versions (the chat’s branch arrows)', () => {
  it('numbers the versions of a turn in the order they were written, and follows a switch', async () => {
    const c = await conversation();
    await c.say('one', 'first');
    await c.say('two-a', 'second, take one');
    await c.rewind('two-a');
    await c.say('two-b', 'second, take two');
    await c.rewind('two-b');
    await c.say('two-c', 'second, take three');
    await c.say('three', 'third');

    let versions = sessionView(await c.open()).versions;
    expect(versions.get('two-c')).toEqual({ message: { index: 3, count: 3, previous: 'two-b' } });
    expect(versions.has('one')).toBe(false); // a single version: no arrows
    expect(versions.has('three')).toBe(false);

    await c.switchTo('two-a');
    versions = sessionView(await c.open()).versions;
    expect(versions.get('two-a')).toEqual({ message: { index: 1, count: 3, next: 'two-b' } });
  });

  it('gives a first turn its versions when the path starts at the root', async () => {
    const c = await conversation();
    await c.say('a', 'hello');
    await c.rewind('a');
    await c.say('b', 'hello again');
    expect(sessionView(await c.open()).versions.get('b')).toEqual({
      message: { index: 2, count: 2, previous: 'a' },
    });
  });

  it('counts the same message asked again (Regenerate) as versions of its answer, not of the message', async () => {
    const c = await conversation();
    await c.say('one', 'first');
    await c.say('ask-1', 'what is color');
    await c.rewind('ask-1');
    await c.say('ask-2', 'what is color'); // Regenerate: the same message again
    let versions = sessionView(await c.open()).versions;
    expect(versions.get('ask-2')).toEqual({ answer: { index: 2, count: 2, previous: 'ask-1' } });

    // An edit then makes a second message, whose own answer is one; its arrows go back to the
    // first message's latest answer.
    await c.rewind('ask-2');
    await c.say('edit', 'what is size');
    versions = sessionView(await c.open()).versions;
    expect(versions.get('edit')).toEqual({ message: { index: 2, count: 2, previous: 'ask-2' } });

    await c.switchTo('ask-1');
    versions = sessionView(await c.open()).versions;
    expect(versions.get('ask-1')).toEqual({
      message: { index: 1, count: 2, next: 'edit' },
      answer: { index: 1, count: 2, next: 'ask-2' },
    });
  });

  it('tells the answers to the same message apart in History', async () => {
    const c = await conversation();
    await c.say('ask-1', 'what is color');
    await c.rewind('ask-1');
    await c.say('ask-2', 'what is color');
    await c.rewind('ask-2');
    await c.say('other', 'set color to red');
    expect(historyRows(await c.open()).map((row) => [row.text, row.version, row.active])).toEqual([
      ['what is color', 'answer 1 of 2', false],
      ['what is color', 'answer 2 of 2', false],
      ['set color to red', undefined, true],
    ]);
  });
});

describe('long values from an opening', () => {
  it('cuts a long turn’s row and a long state value’s preview, keeping the whole to edit and show', async () => {
    const c = await conversation();
    const big = 'y'.repeat(20 * 1024 * 1024);
    await c.say('a', big);
    const view = sessionView(await c.open());
    const [row] = view.history;
    expect(row!.text).toHaveLength(200);
    expect(row!.text).toMatch(/^y+…$/);
    expect(row!.operations.edit?.text).toBe(big);

    const [entry] = view.state.find((group) => group.scope === 'session')!.entries;
    expect(entry).toMatchObject({ key: 'last', value: big });
    expect(entry!.preview).toMatchObject({ truncated: true, showable: false, length: big.length });
    expect(entry!.preview.text.length).toBeLessThanOrEqual(500);
  });
});
