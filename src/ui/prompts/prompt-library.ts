// The page's prompt library (workers/prompts/prompts.ts): the list the Prompts view shows and `/`
// in the message box picks from, read when first wanted and again on every tab's
// `prompts-changed`, and the view's actions (save, delete for good once its Undo has passed,
// import, export). One per page (main.tsx makes it; PromptsContext hands it out).

import { createContext } from 'preact';
import type { PromptInput, PromptRecord, RuntimeBroadcast } from '../../../workers/protocol.ts';
import { download } from '../common/download.ts';
import { ViewState } from '../workbench/view-state.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';

export interface PromptLibraryState {
  prompts: readonly PromptRecord[];
  /** The list has come once. */
  loaded: boolean;
  busy: boolean;
  status: string | undefined;
  error: string | undefined;
}

export class PromptLibrary extends ViewState<PromptLibraryState> {
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>) {
    super({ prompts: [], loaded: false, busy: false, status: undefined, error: undefined });
  }

  /** Reads the list, once, and follows every tab's changes from then on. */
  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.client.onBroadcast((message: RuntimeBroadcast) => {
      if (message.type === 'prompts-changed') void this.read();
    });
    void this.read();
  }

  /** Saves a prompt; true when it was (else `error` says why and the form keeps its text). */
  async save(input: PromptInput): Promise<boolean> {
    return this.guard(async () => {
      const saved = await this.client.runtime.savePrompt(input);
      await this.read();
      this.set({ status: `Saved “${saved.name}”.` });
    });
  }

  /** Deletes for good (PendingDeletes calls it once the Undo has had its time). */
  async remove(id: string): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.deletePrompt(id);
      await this.read();
    });
  }

  async importFile(file: File): Promise<void> {
    await this.guard(async () => {
      const report = await this.client.runtime.importPrompts(await file.text());
      await this.read();
      const parts = [
        `Imported ${report.added.length} ${report.added.length === 1 ? 'prompt' : 'prompts'}`,
        report.unchanged > 0 ? `${report.unchanged} here already` : '',
        report.conflicts.length > 0
          ? `kept yours for ${report.conflicts.map((name) => `“${name}”`).join(', ')} (same name, other text)`
          : '',
      ];
      this.set({ status: `${parts.filter(Boolean).join('; ')}.` });
    });
  }

  async exportFile(): Promise<void> {
    await this.guard(async () => {
      const { filename, json } = await this.client.runtime.exportPrompts();
      download(filename, json);
    });
  }

  private async read(): Promise<void> {
    try {
      this.set({ prompts: await this.client.runtime.listPrompts(), loaded: true });
    } catch (error) {
      this.set({ error: (error as Error).message, loaded: true });
    }
  }

  private async guard(action: () => Promise<void>): Promise<boolean> {
    this.set({ busy: true, error: undefined, status: undefined });
    try {
      await action();
      return true;
    } catch (error) {
      this.set({ error: (error as Error | null)?.message ?? String(error) });
      return false;
    } finally {
      this.set({ busy: false });
    }
  }
}

/** The page's library (main.tsx provides it); none: `/` offers nothing. */
export const PromptsContext = createContext<PromptLibrary | undefined>(undefined);
