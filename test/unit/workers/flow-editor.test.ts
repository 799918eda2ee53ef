// The Flows view's view model against the real runtime (Node over fake-indexeddb): the list, the
// problems as the user types, refused and accepted saves, and what the graph and problems say.

import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { Remote } from 'comlink';
import { FlowEditor } from '../../../src/ui/flows/flow-editor.ts';
import {
  NEW_FLOW,
  drawable,
  flowText,
  offsetOf,
  problemLines,
  problemNodes,
} from '../../../src/ui/flows/flow-editor-model.ts';
import { graphLabel, nodeState } from '../../../src/ui/flows/flow-graph-model.ts';
import { AppRuntime } from '../../../workers/app.ts';
import type { RuntimeBroadcast } from '../../../workers/protocol.ts';
import type { RuntimeApi } from '../../../workers/runtime.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName } from '../../support/helpers.ts';

/** The runtime as the page sees it through Comlink, in process; broadcasts delivered at once. */
function client() {
  const listeners = new Set<(message: RuntimeBroadcast) => void>();
  const runtime = new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: (message) => listeners.forEach((listener) => listener(message)),
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
  const api: Partial<RuntimeApi> = {
    agents: () => runtime.agents(),
    listFlows: () => runtime.flows.list(),
    getFlow: (id) => runtime.flows.get(id),
    checkFlow: (json, id) => runtime.flows.check(json, id),
    saveFlow: (json, id) => runtime.flows.save(json, id),
    duplicateFlow: (id) => runtime.flows.duplicate(id),
    deleteFlow: (id) => runtime.flows.remove(id),
  };
  return {
    runtime,
    client: {
      runtime: api as unknown as Remote<RuntimeApi>,
      onBroadcast: (listener: (message: RuntimeBroadcast) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

describe('FlowEditor', () => {
  it('undoes and redoes edits, keystrokes close together as one step, and starts over per flow', async () => {
    const editor = new FlowEditor(client().client, 0);
    await editor.start();
    editor.newFlow();
    const first = editor.snapshot.text;
    expect(editor.snapshot.canUndo).toBe(false);
    const canvasEdit = first.replace('"my-flow"', '"one"');
    editor.edit(canvasEdit);
    editor.edit(canvasEdit.replace('"one"', '"o"'), { typing: true });
    editor.edit(canvasEdit.replace('"one"', '"ot"'), { typing: true });
    editor.undo(); // the two keystrokes are one step
    expect(editor.snapshot.text).toBe(canvasEdit);
    editor.undo();
    expect(editor.snapshot.text).toBe(first);
    expect(editor.snapshot).toMatchObject({ canUndo: false, canRedo: true });
    editor.redo();
    expect(editor.snapshot.text).toBe(canvasEdit);
    editor.edit(canvasEdit.replace('"one"', '"two"'));
    expect(editor.snapshot.canRedo).toBe(false); // a new edit ends the redo
    editor.newFlow();
    expect(editor.snapshot).toMatchObject({ canUndo: false, canRedo: false });
    editor.discard();
  });

  it('opens the first example, read-only, with its graph and no problems', async () => {
    const editor = new FlowEditor(client().client, 0);
    await editor.start();
    await vi.waitFor(() => expect(editor.snapshot.check?.problems).toEqual([]));
    const state = editor.snapshot;
    expect(state.flows.map((flow) => flow.id)).toEqual([
      'example:support',
      'example:research-brief',
    ]);
    expect(state.selectedId).toBe('example:support');
    expect(editor.readOnly).toBe(true);
    expect(JSON.parse(state.text).name).toBe('support');
    expect(state.check?.problems).toEqual([]);
    editor.stop();
  });

  it('duplicates an example, refuses a broken save in place, then saves the fix', async () => {
    const { client: c, runtime } = client();
    const editor = new FlowEditor(c, 0);
    await editor.start();
    await editor.duplicate('example:support');
    expect(editor.snapshot.selectedId).toMatch(/^flow:/);
    expect(editor.readOnly).toBe(false);
    const good = editor.snapshot.text;

    editor.edit(good.replace('"lookup_invoice"', '"lookup_invoices"'));
    await vi.waitFor(() =>
      expect(problemLines(editor.snapshot.check).map((line) => line.text)).toEqual([
        expect.stringMatching(/^billing: .*lookup_invoices/),
      ]),
    );
    await editor.save();
    expect(editor.snapshot.status).toBe('Not saved: fix the problem first.');
    expect((await runtime.flows.get(editor.snapshot.selectedId!)).flow).toEqual(JSON.parse(good));

    editor.edit(good.replace('"name": "support-copy"', '"name": "support-mine"'));
    await editor.save();
    expect(editor.snapshot.status).toMatch(/Saved “support-mine”/);
    expect(editor.snapshot.text).toBe(editor.snapshot.savedText);
    expect((await runtime.agents()).map((agent) => agent.name)).toContain('support-mine (flow)');
    editor.stop();
  });

  it('keeps unsaved edits as a draft across other flows, a new view and a reload, until saved or discarded', async () => {
    const { client: c } = client();
    const kept: { drafts: Record<string, string> } = { drafts: {} };
    const storage = {
      load: () => kept.drafts,
      save: (drafts: Readonly<Record<string, string>>) => void (kept.drafts = { ...drafts }),
    };
    const editor = new FlowEditor(c, 0, storage);
    await editor.start();
    await editor.duplicate('example:support');
    const id = editor.snapshot.selectedId!;
    const saved = editor.snapshot.text;
    const edited = saved.replace('"name": "support-copy"', '"name": "support-edited"');
    editor.edit(edited);
    expect(editor.hasUnsaved).toBe(true);

    // Opening another flow, or starting a new one, keeps it; coming back restores it, and says so.
    await editor.select('example:research-brief');
    editor.newFlow();
    await editor.select(id);
    expect(editor.snapshot.text).toBe(edited);
    expect(editor.snapshot.savedText).toBe(saved);
    expect(editor.snapshot.status).toMatch(/Unsaved changes from before/);
    editor.stop();

    // A reload: a new editor on the same storage has it.
    const reloaded = new FlowEditor(c, 0, storage);
    await reloaded.start();
    expect(reloaded.hasUnsaved).toBe(true);
    await reloaded.select(id);
    expect(reloaded.snapshot.text).toBe(edited);

    // Typing the saved text back is no edit; Discard and Save both end the draft.
    reloaded.edit(saved);
    expect(reloaded.hasUnsaved).toBe(false);
    reloaded.edit(edited);
    reloaded.discard();
    expect(reloaded.snapshot.text).toBe(saved);
    expect(kept.drafts).toEqual({});
    reloaded.edit(edited);
    await reloaded.save();
    expect(reloaded.snapshot.status).toMatch(/Saved “support-edited”/);
    expect(reloaded.hasUnsaved).toBe(false);
    expect(kept.drafts).toEqual({});
    reloaded.stop();
  });

  it('starts with no drafts when the stored ones are unreadable', async () => {
    const editor = new FlowEditor(client().client, 0, {
      load: () => {
        throw new SyntaxError('Unexpected token');
      },
      save: () => {},
    });
    expect(editor.snapshot.drafts).toEqual({});
    const other = new FlowEditor(client().client, 0, {
      load: () => ({ 'flow:1': 42, 'flow:2': 'text' }) as unknown as Record<string, string>,
      save: () => {},
    });
    expect(other.snapshot.drafts).toEqual({ 'flow:2': 'text' });
  });

  it('shows only the latest check, and follows flows saved elsewhere', async () => {
    const { client: c, runtime } = client();
    const editor = new FlowEditor(c, 0);
    await editor.start();
    editor.edit('{');
    editor.edit(flowText({ name: 'x', nodes: [], edges: [] }));
    // The check of '{' may answer last; only the latest is shown, whatever the machine's pace.
    await vi.waitFor(() => expect(editor.snapshot.check?.problems.length).toBeGreaterThan(0));
    expect(editor.snapshot.check?.parseError).toBeUndefined();
    await runtime.flows.save(flowText({ ...NEW_FLOW, name: 'other' }));
    await vi.waitFor(() =>
      expect(editor.snapshot.flows.map((flow) => flow.name)).toContain('other'),
    );
    editor.stop();
  });
});

describe('the Flows view models', () => {
  it('says where JSON stops parsing, and finds that place in the text', () => {
    const lines = problemLines({
      problems: [{ message: 'JSON: x' }],
      parseError: { message: "Unexpected token ',' at line 2, column 3", line: 2, column: 3 },
    });
    expect(lines).toEqual([
      {
        key: 'parse',
        text: "The JSON does not parse: line 2, column 3: Unexpected token ','",
        at: { line: 2, column: 3 },
      },
    ]);
    expect(offsetOf('{\n  ,\n}', 2, 3)).toBe(4);
    expect(offsetOf('{}', 9, 1)).toBe(2);
  });

  it('names the nodes of each problem, and marks them on the graph', () => {
    const check = {
      problems: [
        { nodeId: 'billing', message: 'unknown tool' },
        { message: 'the flow needs a name' },
        { nodeId: 'billing', message: 'no instruction' },
      ],
    };
    expect(problemLines(check).map((line) => line.text)).toEqual([
      'billing: unknown tool',
      'the flow needs a name',
      'billing: no instruction',
    ]);
    expect(problemNodes(check)).toEqual(['billing']);
    expect(
      nodeState('billing', { current: [], visited: [], running: false, problems: ['billing'] }),
    ).toMatchObject({ classes: 'problem', title: 'problem' });
  });

  it('draws what parses, else keeps the last graph', () => {
    const last = { nodes: [], edges: [] };
    expect(drawable({ nodes: [{ id: 'a' }] }, last)).toEqual({ nodes: [{ id: 'a' }], edges: [] });
    expect(drawable(undefined, last)).toBe(last);
    expect(drawable(42, undefined)).toBeUndefined();
  });

  it.each([
    [[], false, false, 'Flow graph of support'],
    [['billing'], true, false, 'Flow graph of support, running billing'],
    [['billing'], false, true, 'Flow graph of support, waiting for you at billing'],
    [['a', 'b'], false, false, 'Flow graph of support, stopped at a and b'],
  ])('labels the graph: %j running=%s waiting=%s', (current, running, waiting, label) => {
    expect(graphLabel('support', current, running, waiting)).toBe(label);
  });

  it('marks the running node as running, and done nodes as done', () => {
    const marks = { current: ['b'], visited: ['a'], running: true, problems: [] };
    expect(nodeState('b', marks)).toEqual({ classes: 'running', title: 'running', running: true });
    expect(nodeState('a', marks)).toEqual({ classes: 'visited', title: 'done', running: false });
    expect(nodeState('c', marks)).toEqual({ classes: '', title: undefined, running: false });
  });

  it('marks a node a Flowise import left something out of, unless it has a problem', () => {
    const marks = { current: [], visited: [], running: false, problems: ['b'], noted: ['a', 'b'] };
    expect(nodeState('a', marks)).toMatchObject({
      classes: 'noted',
      title: 'see the import report',
    });
    expect(nodeState('b', marks)).toMatchObject({ classes: 'problem', title: 'problem' });
  });
});
