import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import type { FlowEditor } from './flow-editor.ts';
import { flowText, offsetOf, problemLines, problemNodes } from './flow-editor-model.ts';
import { detailsOf, nodeOf, stateOf, withDetail, withField, withState } from './node-form-model.ts';
import { FlowDetails } from './FlowDetails.tsx';
import { FLOW_CHOICES_ID, FlowStateForm, MODEL_CHOICES_ID, NodeForm } from './NodeForm.tsx';
import { FlowCanvas } from './canvas/index.tsx';
import { parseLooseFlow, type LooseFlow } from './canvas/loose-flow.ts';
import { ErrorBanner, FormStatus } from '../common/FormNotices.tsx';
import { DeleteButton, useHiddenIds } from '../common/DeleteButton.tsx';

interface Props {
  editor: FlowEditor;
  /** Runs the flow in the open session (sets its agent). */
  onUse: (agentId: string) => void;
  onClose: () => void;
}

/** The Flows view: the flows, a JSON editor with its problems in place, and the graph. */
export function FlowsView({ editor, onUse, onClose }: Props) {
  const state = useSnapshot(editor);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const { flows, selectedId, text, savedText, check, saving, status, error, drafts } = state;
  // Deleted, waiting for its Undo: not listed.
  const deleted = useHiddenIds('flow');
  const listed = flows.filter((item) => !deleted.has(item.id));
  const selected = flows.find((flow) => flow.id === selectedId);
  const readOnly = selected?.readOnly ?? false;
  const dirty = text !== savedText;
  const problems = problemLines(check);
  // The canvas draws the text as it stands, or its last version that parsed (while a quote is
  // missing in the code view, the canvas stays put).
  const lastFlow = useRef<LooseFlow | undefined>(undefined);
  const canvasFlow = useMemo(() => parseLooseFlow(text) ?? lastFlow.current, [text]);
  lastFlow.current = canvasFlow;
  const [tab, setTab] = useState<'canvas' | 'code'>('canvas');
  const [refused, setRefused] = useState<string | undefined>();
  const [stateOpen, setStateOpen] = useState(false);
  const stateForm = useMemo(() => (stateOpen ? stateOf(text) : undefined), [stateOpen, text]);
  const nodeProblems = useMemo(() => problemNodes(check), [check]);
  // The nodes a Flowise import left something out of are marked until the report is gone.
  const marks = useMemo(
    () => ({
      problems: nodeProblems,
      noted: (state.report ?? []).flatMap((item) =>
        item.kind === 'dropped' && item.nodeId ? [item.nodeId] : [],
      ),
    }),
    [nodeProblems, state.report],
  );
  // The node whose form is open: it follows the text, and closes when another flow opens.
  const [selectedNode, setSelectedNode] = useState<string | undefined>();
  useEffect(() => setSelectedNode(undefined), [selectedId]);
  const formNode = useMemo(
    () => (selectedNode ? nodeOf(text, selectedNode) : undefined),
    [text, selectedNode],
  );

  useEffect(() => {
    void editor.start();
    return () => editor.stop();
  }, [editor]);
  // What an import said, brought into view: it shows above the canvas, where the page may not
  // be scrolled to.
  const importNote = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.importNote) importNote.current?.scrollIntoView?.({ block: 'nearest' });
  }, [state.importNote]);
  const details = useMemo(() => detailsOf(text), [text]);

  const goTo = (line: number, column: number) => {
    if (tab !== 'code') {
      setTab('code');
      requestAnimationFrame(() => goTo(line, column));
      return;
    }
    const element = textarea.current;
    if (!element) return;
    const offset = offsetOf(element.value, line, column);
    element.focus();
    element.setSelectionRange(offset, offset + 1);
  };

  return (
    <section class="flows-view" aria-label="Flows">
      <datalist id={MODEL_CHOICES_ID}>
        {state.modelChoices.map((choice) => (
          <option key={choice} value={choice} />
        ))}
      </datalist>
      <datalist id={FLOW_CHOICES_ID}>
        {listed.map((flow) => (
          <option key={flow.id} value={flow.name} />
        ))}
      </datalist>
      <header class="flows-head">
        <h2>Flows</h2>
        <p class="hint">
          Graph workflows in Flowise's terms (docs/flows.md). They run on the offline demo model.
        </p>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <div class="flows-body">
        <nav class="flows-list" aria-label="Flow list">
          <ul>
            {listed.map((flow) => (
              <li key={flow.id} class={flow.id === selectedId ? 'current' : ''}>
                <button
                  type="button"
                  class="flow-open"
                  aria-pressed={flow.id === selectedId}
                  onClick={() => void editor.select(flow.id)}
                >
                  {flow.name}
                  {flow.readOnly && <span class="badge">example</span>}
                  {drafts[flow.id] !== undefined && (
                    <span class="badge unsaved" title="Edited, not saved">
                      draft
                    </span>
                  )}
                </button>
                <div class="flow-actions">
                  <button
                    type="button"
                    aria-label={`Duplicate ${flow.name}`}
                    onClick={() => void editor.duplicate(flow.id)}
                  >
                    Duplicate
                  </button>
                  {!flow.readOnly && (
                    <DeleteButton
                      kind="flow"
                      id={flow.id}
                      label={`Delete ${flow.name}`}
                      said={`Deleted the flow “${flow.name}”. Its sessions are kept.`}
                    />
                  )}
                </div>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => editor.newFlow()}>
            New flow
          </button>
          <label class="import">
            Import Flowise flow…
            <input
              type="file"
              accept=".json,application/json"
              onChange={async (event) => {
                const input = event.currentTarget;
                const file = input.files?.[0];
                input.value = '';
                if (file) await editor.importFlowise(await file.text(), file.name);
              }}
            />
          </label>
        </nav>

        <div class="flow-editor">
          {readOnly && (
            <p class="hint">
              A built-in example, read-only: <strong>Duplicate</strong> it to edit a copy.
            </p>
          )}
          <div ref={importNote} class="import-note">
            <ErrorBanner text={state.importNote?.refused && state.importNote.text} />
            <FormStatus text={state.importNote?.refused === false && state.importNote.text} />
          </div>
          {state.report && state.report.length > 0 && (
            <section class="flowise-report" aria-label="Import report">
              <h3>From Flowise: what changed or was left out</h3>
              <ul>
                {state.report.map((item, index) => (
                  <li key={index} class={item.kind}>
                    {item.nodeId && <code>{item.nodeId}</code>} {item.message}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {details && (
            <FlowDetails
              details={details}
              readOnly={readOnly}
              onChange={(key, value) => {
                const next = withDetail(text, key, value);
                if (next !== undefined) editor.edit(next, { typing: true });
              }}
            />
          )}
          <div class="flow-tabs" role="tablist" aria-label="Edit the flow as">
            {(['canvas', 'code'] as const).map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                id={`flow-tab-${name}`}
                aria-selected={tab === name}
                aria-controls="flow-tab-panel"
                onClick={() => setTab(name)}
              >
                {name === 'canvas' ? 'Canvas' : 'Code'}
              </button>
            ))}
          </div>
          <div id="flow-tab-panel" role="tabpanel" aria-labelledby={`flow-tab-${tab}`}>
            {tab === 'code' ? (
              <label class="flow-json">
                Flow JSON
                <textarea
                  ref={textarea}
                  value={text}
                  readOnly={readOnly}
                  spellcheck={false}
                  rows={18}
                  onInput={(event) => editor.edit(event.currentTarget.value, { typing: true })}
                />
              </label>
            ) : canvasFlow ? (
              <div class={`canvas-and-form${formNode || stateForm ? ' with-form' : ''}`}>
                <FlowCanvas
                  flow={canvasFlow}
                  readOnly={readOnly}
                  label={`Canvas of ${typeof canvasFlow.name === 'string' ? canvasFlow.name : 'this flow'}`}
                  marks={marks}
                  selected={selectedNode}
                  onSelect={(nodeId) => {
                    if (nodeId) setStateOpen(false);
                    setSelectedNode(nodeId);
                  }}
                  onOpenState={() => {
                    setSelectedNode(undefined);
                    setStateOpen(true);
                  }}
                  onChange={(flow, options) => {
                    setRefused(undefined);
                    editor.edit(flowText(flow), options);
                  }}
                  onRefused={setRefused}
                  {...(state.canUndo ? { onUndo: () => editor.undo() } : {})}
                  {...(state.canRedo ? { onRedo: () => editor.redo() } : {})}
                />
                <div class="canvas-side">
                  {stateForm && (
                    <FlowStateForm
                      state={stateForm}
                      readOnly={readOnly}
                      onRows={(rows) => {
                        const next = withState(text, rows);
                        if (next !== undefined) editor.edit(next, { typing: true });
                      }}
                      onClose={() => setStateOpen(false)}
                    />
                  )}
                  {formNode && (
                    <NodeForm
                      node={formNode}
                      problems={(check?.problems ?? [])
                        .filter((problem) => problem.nodeId === selectedNode)
                        .map((problem) => problem.message)}
                      readOnly={readOnly}
                      toolChoices={state.toolChoices}
                      bases={state.knowledgeChoices}
                      onChange={(key, value) => {
                        const next = withField(text, selectedNode!, key, value);
                        if (next !== undefined) editor.edit(next, { typing: true });
                      }}
                      onClose={() => setSelectedNode(undefined)}
                    />
                  )}
                </div>
              </div>
            ) : (
              <p class="hint">
                The JSON does not hold a flow yet (it needs a list of nodes): fix it in Code.
              </p>
            )}
          </div>
          {refused && (
            <p class="flow-status" role="status">
              {refused}
            </p>
          )}
          <div class="flow-buttons">
            <button
              type="button"
              class="primary"
              disabled={readOnly || saving || (!dirty && selectedId !== undefined)}
              onClick={() => void editor.save()}
            >
              Save
            </button>
            {dirty && !readOnly && (
              <button type="button" onClick={() => editor.discard()}>
                Discard changes
              </button>
            )}
            {selectedId && !dirty && (
              <button type="button" onClick={() => onUse(selectedId)}>
                Use in this session
              </button>
            )}
            <FormStatus text={status} />
          </div>
          <ErrorBanner text={error} />
          {problems.length > 0 && (
            <div class="problems" role="alert">
              <p>
                {problems.length === 1
                  ? 'One problem (the flow cannot be saved until it is fixed):'
                  : `${problems.length} problems (the flow cannot be saved until they are fixed):`}
              </p>
              <ul>
                {problems.map((problem) => (
                  <li key={problem.key}>
                    {problem.at ? (
                      <button
                        type="button"
                        class="quiet"
                        onClick={() => goTo(problem.at!.line, problem.at!.column)}
                      >
                        {problem.text}
                      </button>
                    ) : (
                      problem.text
                    )}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
