// The Flows view's view model: the list of flows, the one being edited, its problems as the user
// types (checked by the worker, which also saves), and Save / Duplicate / Delete.
//
// Invariants:
// - only the answer to the latest check is shown (an older one arriving late is dropped);
// - the worker saves nothing invalid; a refused save shows the problems it found;
// - the list follows other tabs (and this tab's own saves) through the `flows-changed` broadcast;
// - an edit is never lost without a word: the unsaved text of each flow is kept as a draft (in
//   memory, and in the browser's storage when given one, so a reload keeps it too) until it is
//   saved or discarded, whatever the user opens or leaves meanwhile.

import { ViewState } from '../workbench/view-state.ts';
import type { FlowCheck, FlowInfo, RuntimeBroadcast } from '../../../workers/protocol.ts';
import { NEW_FLOW, flowText } from './flow-editor-model.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';
import type { FlowiseReportItem } from '../../flows/flowise/import.ts';

export interface FlowEditorState {
  flows: FlowInfo[];
  /** The flow being edited; `undefined` for a new flow not saved yet. */
  selectedId: string | undefined;
  text: string;
  /** The text as last opened or saved: the editor is dirty when `text` differs. */
  savedText: string;
  check: FlowCheck | undefined;
  saving: boolean;
  /** "Saved.", "Not saved: …". */
  status: string | undefined;
  error: string | undefined;
  /** Unsaved texts by flow id (`new` for a flow never saved), the one being edited included. */
  drafts: Readonly<Record<string, string>>;
  /** What a Flowise import changed or left out, by node, while its flow is open. */
  report: readonly FlowiseReportItem[] | undefined;
  /** What the last Flowise import said: done (and how), or refused and why; shown with the report. */
  importNote: { refused: boolean; text: string } | undefined;
  /** Undo and Redo have something to go back or forward to (in this flow, since it opened). */
  canUndo: boolean;
  canRedo: boolean;
  /** `Provider name/model` for each provider's default model: what a node's Model offers. */
  modelChoices: readonly string[];
  /** The tools a node may name: the demo tools, then the tool servers' (`Server/tool`). */
  toolChoices: readonly string[];
  /** The user's knowledge bases, which a node's Knowledge picks from. */
  knowledgeChoices: readonly { id: string; name: string }[];
}

/** Where drafts outlive the page (localStorage in the app). */
export interface DraftStorage {
  load(): Record<string, string>;
  save(drafts: Readonly<Record<string, string>>): void;
}

const NEW_KEY = 'new';

const INITIAL: FlowEditorState = {
  flows: [],
  selectedId: undefined,
  text: '',
  savedText: '',
  check: undefined,
  saving: false,
  status: undefined,
  error: undefined,
  drafts: {},
  report: undefined,
  importNote: undefined,
  canUndo: false,
  canRedo: false,
  modelChoices: [],
  toolChoices: [],
  knowledgeChoices: [],
};

/** How many edits Undo goes back at most. */
const UNDO_DEPTH = 200;
/** Typing in the code view within this long of the last keystroke is one step of Undo. */
const TYPING_STEP_MS = 1000;

export class FlowEditor extends ViewState<FlowEditorState> {
  private checkTimer: ReturnType<typeof setTimeout> | undefined;
  private checks = 0;
  /** The texts Undo goes back to (latest last), and those Redo goes forward to. */
  private past: string[] = [];
  private future: string[] = [];
  private lastTyping = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>,
    private readonly checkDelayMs = 250,
    private readonly storage?: DraftStorage,
  ) {
    super({ ...INITIAL, drafts: loadDrafts(storage) });
  }

  /** Whether some flow has edits not saved. */
  get hasUnsaved(): boolean {
    return Object.keys(this.state.drafts).length > 0;
  }

  get selected(): FlowInfo | undefined {
    return this.state.flows.find((flow) => flow.id === this.state.selectedId);
  }

  get readOnly(): boolean {
    return this.selected?.readOnly ?? false;
  }

  /** Loads the list and opens a flow (the first one, unless one is open already). */
  async start(): Promise<void> {
    this.unsubscribe ??= this.client.onBroadcast((message: RuntimeBroadcast) => {
      if (message.type === 'flows-changed' || message.type === 'knowledge-changed')
        void this.refresh();
    });
    await this.refresh();
    const { flows, selectedId, text } = this.state;
    if (!text && flows[0]) await this.select(selectedId ?? flows[0].id);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.checkTimer);
  }

  async refresh(): Promise<void> {
    await this.guard(async () => this.set({ flows: await this.client.runtime.listFlows() }));
    // The providers' models, offered by the Model fields (none listed: none offered).
    const providers = await this.client.runtime.listProviders?.().catch(() => []);
    if (providers) this.set({ modelChoices: providers.map((p) => `${p.name}/${p.defaultModel}`) });
    const tools = await this.client.runtime.flowToolChoices?.().catch(() => undefined);
    if (tools) this.set({ toolChoices: tools });
    const bases = await this.client.runtime.knowledge?.list().catch(() => undefined);
    if (bases)
      this.set({
        knowledgeChoices: bases.map(({ id, name }: { id: string; name: string }) => ({ id, name })),
      });
  }

  async select(id: string): Promise<void> {
    const flow =
      this.state.flows.find((item) => item.id === id) ??
      (await this.guard(() => this.client.runtime.getFlow(id)));
    if (!flow) return;
    this.load(flow.id, flowText(flow.flow));
  }

  newFlow(): void {
    this.load(undefined, flowText(NEW_FLOW));
  }

  async duplicate(id: string): Promise<void> {
    await this.guard(async () => {
      const copy = await this.client.runtime.duplicateFlow(id);
      await this.refresh();
      this.load(copy.id, flowText(copy.flow));
      this.set({ status: `Duplicated as “${copy.name}”: this copy is yours to edit.` });
    });
  }

  /**
   * Imports a Flowise Sequential Agents export as a new flow, unsaved, with the report of what
   * changed on the way. An unsaved new flow already open is never overwritten.
   */
  async importFlowise(text: string, fileName: string): Promise<void> {
    // A refusal replaces the last import's report: what shows is about this file.
    const refuse = (why: string) =>
      this.set({ report: undefined, importNote: { refused: true, text: why } });
    if (this.state.drafts[NEW_KEY] !== undefined) {
      refuse(
        `${fileName} was not imported: a new flow is not saved yet; save or discard it, then import.`,
      );
      return;
    }
    try {
      const { readFlowiseFile } = await import('../../flows/flowise/import.ts');
      const { flow, report } = readFlowiseFile(text, fileName);
      this.load(undefined, flowText(NEW_FLOW));
      this.edit(flowText(flow));
      this.set({
        report,
        error: undefined,
        importNote: {
          refused: false,
          text:
            report.length === 0
              ? 'Imported from Flowise: check it and save.'
              : `Imported from Flowise with ${report.length} notes (listed below): check it and save.`,
        },
      });
    } catch (error) {
      refuse(`${fileName} was not imported: ${(error as Error | null)?.message ?? String(error)}`);
    }
  }

  /** The user typed: the problems follow shortly. */
  edit(text: string, { typing = false }: { typing?: boolean } = {}): void {
    const previous = this.state.text;
    if (text === previous) return;
    const now = Date.now();
    // Keystrokes close together are one step; every canvas or form edit is a step of its own.
    if (!typing || now - this.lastTyping > TYPING_STEP_MS) {
      this.past = [...this.past.slice(1 - UNDO_DEPTH), previous];
      this.future = [];
    }
    this.lastTyping = typing ? now : 0;
    this.apply(text);
  }

  /** Back to the text before the last edit (Ctrl+Z); the edit can be redone. */
  undo(): void {
    const text = this.past.at(-1);
    if (text === undefined || this.readOnly) return;
    this.past = this.past.slice(0, -1);
    this.future = [...this.future, this.state.text];
    this.lastTyping = 0;
    this.apply(text);
  }

  /** The last edit undone, done again (Ctrl+Shift+Z). */
  redo(): void {
    const text = this.future.at(-1);
    if (text === undefined || this.readOnly) return;
    this.future = this.future.slice(0, -1);
    this.past = [...this.past, this.state.text];
    this.lastTyping = 0;
    this.apply(text);
  }

  private apply(text: string): void {
    this.set({
      text,
      status: undefined,
      canUndo: this.past.length > 0,
      canRedo: this.future.length > 0,
    });
    this.keepDraft(this.state.selectedId, text === this.state.savedText ? undefined : text);
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => void this.runCheck(), this.checkDelayMs);
  }

  async save(): Promise<void> {
    if (this.readOnly || this.state.saving) return;
    clearTimeout(this.checkTimer);
    const { text, selectedId } = this.state;
    this.set({ saving: true, status: undefined, error: undefined });
    this.checks++; // a check in flight is older than this save
    const result = await this.guard(() => this.client.runtime.saveFlow(text, selectedId));
    this.set({ saving: false });
    if (!result) return;
    if (!result.saved) {
      const count = result.problems.length;
      this.set({
        check: result,
        status: `Not saved: fix the ${count === 1 ? 'problem' : `${count} problems`} first.`,
      });
      return;
    }
    const saved = result.saved;
    this.keepDraft(selectedId, undefined);
    await this.refresh();
    this.set({
      selectedId: saved.id,
      savedText: text,
      check: result,
      status: `Saved “${saved.name}”. It is in the Agent select.`,
    });
  }

  async remove(id: string): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.deleteFlow(id);
      this.keepDraft(id, undefined);
      await this.refresh();
      if (this.state.selectedId === id) {
        const next = this.state.flows[0];
        if (next) this.load(next.id, flowText(next.flow));
        else this.newFlow();
      }
      this.set({ status: 'Deleted. Sessions that used it are kept.' });
    });
  }

  /** Drops the unsaved edits of the flow being edited: back to its saved text. */
  discard(): void {
    this.keepDraft(this.state.selectedId, undefined);
    this.load(this.state.selectedId, this.state.savedText);
    this.set({ status: 'Changes discarded.' });
  }

  dismiss(): void {
    this.set({ error: undefined, status: undefined });
  }

  /** Opens a flow at `savedText`, or at its draft when it has unsaved edits. */
  private load(selectedId: string | undefined, savedText: string): void {
    clearTimeout(this.checkTimer);
    this.past = [];
    this.future = [];
    const draft = this.state.drafts[selectedId ?? NEW_KEY];
    this.set({
      selectedId,
      text: draft ?? savedText,
      savedText,
      check: undefined,
      report: undefined,
      importNote: undefined,
      canUndo: false,
      canRedo: false,
      status:
        draft === undefined
          ? undefined
          : 'Unsaved changes from before: save them, or discard them.',
    });
    void this.runCheck();
  }

  private keepDraft(selectedId: string | undefined, text: string | undefined): void {
    const key = selectedId ?? NEW_KEY;
    if (this.state.drafts[key] === text) return;
    const drafts = { ...this.state.drafts };
    if (text === undefined) delete drafts[key];
    else drafts[key] = text;
    this.set({ drafts });
    try {
      this.storage?.save(drafts);
    } catch {
      // A full or locked storage: the draft is still kept in this page.
    }
  }

  private async runCheck(): Promise<void> {
    const ticket = ++this.checks;
    const { text, selectedId } = this.state;
    const check = await this.guard(() => this.client.runtime.checkFlow(text, selectedId));
    if (check && ticket === this.checks) this.set({ check });
  }

  private async guard<T>(action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      this.set({ error: (error as Error | null)?.message ?? String(error) });
      return undefined;
    }
  }
}

function loadDrafts(storage: DraftStorage | undefined): Record<string, string> {
  try {
    const drafts: unknown = storage?.load();
    if (typeof drafts !== 'object' || drafts === null || Array.isArray(drafts)) return {};
    return Object.fromEntries(
      Object.entries(drafts).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  } catch {
    // Storage that is off, or drafts that no longer parse: there is nothing to restore.
    return {};
  }
}
