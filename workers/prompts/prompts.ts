// The prompt library, in the worker: saved prompts (a name, a text with `{{variables}}`) that `/`
// in the message box inserts. What must stay true:
// - the library is one record of the settings store (`prompts`, checked by settings-schema.ts):
//   no new object store, so no schema version of its own to race with other changes to the
//   database, and backups carry it as they carry settings (merged prompt by prompt on restore);
// - every change is one read-and-write transaction (IndexedDbAppStore.updateSetting): two tabs
//   saving at once both keep their prompt;
// - names are unique whatever their case (`/name` must find one prompt), never empty;
// - bad input is refused with a clear message and writes nothing; after every change every tab
//   hears `prompts-changed`.

import { InvalidRequestError } from '../../src/core/errors.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import type { RuntimeBroadcast } from '../protocol.ts';
import {
  MAX_PROMPTS,
  PROMPT_NAME_CHARS,
  PROMPT_TEXT_CHARS,
  type PromptImport,
  type PromptInput,
  type PromptRecord,
} from './prompt-protocol.ts';

export const PROMPTS_SETTING = 'prompts';
export const PROMPTS_FORMAT = 'trellis-prompts';
/** An import file's size at most (characters): a library of prompts, not a corpus. */
const IMPORT_CHARS = 12_000_000;

export class AppPrompts {
  constructor(
    private readonly store: IndexedDbAppStore,
    private readonly broadcast: (message: RuntimeBroadcast) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The library, by name. */
  async list(): Promise<PromptRecord[]> {
    return sorted((await this.store.getSetting<PromptRecord[]>(PROMPTS_SETTING)) ?? []);
  }

  /** Saves a new prompt (no `id`) or changes one; returns it as stored. */
  async save(input: PromptInput): Promise<PromptRecord> {
    const { name, text } = checkedInput(input);
    let saved: PromptRecord | undefined;
    await this.change((prompts) => {
      const id = input.id;
      if (id !== undefined && !prompts.some((prompt) => prompt.id === id))
        throw new InvalidRequestError(
          'That prompt is no longer in the library (deleted in another tab?)',
        );
      taken(prompts, name, id);
      saved = { id: id ?? crypto.randomUUID(), name, text, updatedAt: this.now() };
      const others = prompts.filter((prompt) => prompt.id !== id);
      if (others.length >= MAX_PROMPTS) throw full();
      return [...others, saved];
    });
    return saved!;
  }

  /** Deletes a prompt; one already gone is not an error (another tab deleted it). */
  async remove(id: string): Promise<void> {
    await this.change((prompts) => prompts.filter((prompt) => prompt.id !== id));
  }

  /** The library as a file to download. */
  async exportFile(): Promise<{ filename: string; json: string }> {
    const prompts = (await this.list()).map(({ name, text }) => ({ name, text }));
    const json = JSON.stringify({ format: PROMPTS_FORMAT, version: 1, prompts }, null, 2);
    return { filename: 'trellis-prompts.json', json };
  }

  /**
   * Adds the prompts of a file: Trellis's export, a plain array of `{ name, text }`, or Open
   * WebUI's prompt export (`{ command: '/name', content }`). A file with any bad prompt adds none.
   */
  async importFile(json: string): Promise<PromptImport> {
    const incoming = parsedImport(json);
    const report: PromptImport = { added: [], unchanged: 0, conflicts: [] };
    await this.change((prompts) => {
      const added: PromptRecord[] = [];
      for (const { name, text } of incoming) {
        const here = [...prompts, ...added].find((prompt) => sameName(prompt.name, name));
        if (!here) {
          added.push({ id: crypto.randomUUID(), name, text, updatedAt: this.now() });
          report.added.push(name);
        } else if (here.text === text) report.unchanged++;
        else report.conflicts.push(name);
      }
      if (prompts.length + added.length > MAX_PROMPTS) throw full();
      return [...prompts, ...added];
    });
    return report;
  }

  private async change(change: (prompts: PromptRecord[]) => PromptRecord[]): Promise<void> {
    await this.store.updateSetting<PromptRecord[]>(PROMPTS_SETTING, (stored) =>
      change(stored ?? []),
    );
    this.broadcast({ type: 'prompts-changed' });
  }
}

const sorted = (prompts: PromptRecord[]) =>
  [...prompts].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const full = () =>
  new InvalidRequestError(`The library holds ${MAX_PROMPTS} prompts at most: delete some first`);

function taken(prompts: readonly PromptRecord[], name: string, id: string | undefined): void {
  const other = prompts.find((prompt) => prompt.id !== id && sameName(prompt.name, name));
  if (other)
    throw new InvalidRequestError(`A prompt is named “${other.name}” already: choose another name`);
}

/** The input's name and text, trimmed, or an error saying what is wrong. */
function checkedInput(input: unknown, where = 'The prompt'): { name: string; text: string } {
  const { name, text } = (input ?? {}) as Partial<PromptInput>;
  if (typeof name !== 'string' || !name.trim())
    throw new InvalidRequestError(`${where} needs a name`);
  if (typeof text !== 'string' || !text.trim())
    throw new InvalidRequestError(`${where} needs a text`);
  const clean = name.trim().replace(/\s+/g, ' ');
  if (clean.length > PROMPT_NAME_CHARS)
    throw new InvalidRequestError(`${where}'s name is longer than ${PROMPT_NAME_CHARS} characters`);
  if (text.length > PROMPT_TEXT_CHARS)
    throw new InvalidRequestError(`${where}'s text is longer than ${PROMPT_TEXT_CHARS} characters`);
  return { name: clean, text };
}

function parsedImport(json: string): { name: string; text: string }[] {
  const refuse = (problem: string): never => {
    throw new InvalidRequestError(`Not imported: ${problem}. Nothing was changed.`);
  };
  if (json.length > IMPORT_CHARS) refuse('the file is too big for a prompt library');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    refuse('it is not JSON');
  }
  const file = value as { format?: unknown; prompts?: unknown } | null;
  const list = Array.isArray(value)
    ? value
    : file?.format === PROMPTS_FORMAT && Array.isArray(file.prompts)
      ? file.prompts
      : refuse('it is not a prompt library (Prompts → Export makes one)');
  if (list.length > MAX_PROMPTS) refuse(`it holds more than ${MAX_PROMPTS} prompts`);
  const names = new Set<string>();
  return list.map((item: unknown, i: number) => {
    const entry = (item ?? {}) as Record<string, unknown>;
    // Open WebUI's export: the slash command is the name.
    const input =
      typeof entry.command === 'string' && typeof entry.content === 'string'
        ? { name: entry.command.replace(/^\//, ''), text: entry.content }
        : entry;
    try {
      const checked = checkedInput(input, `Prompt ${i + 1}`);
      if (names.has(checked.name.toLowerCase()))
        refuse(`two prompts in it are named “${checked.name}”`);
      names.add(checked.name.toLowerCase());
      return checked;
    } catch (error) {
      if ((error as Error).message.startsWith('Not imported')) throw error;
      return refuse((error as Error).message.toLowerCase());
    }
  });
}

/** What a restore says it did (workers/backups/backups.ts's RestoreReport, the parts it adds to). */
interface RestoreNotes {
  restored: string[];
  unchanged: number;
  conflicts: string[];
}

/**
 * Merges a backup's prompts (checked against settings-schema.ts already) into the library, as a
 * restore merges everything: a prompt here with the same id or name and the same text is left
 * as it is, with another text it is a conflict and the library's own is kept.
 */
export async function restorePrompts(
  store: IndexedDbAppStore,
  incoming: readonly PromptRecord[],
  report: RestoreNotes,
): Promise<void> {
  await store.updateSetting<PromptRecord[]>(PROMPTS_SETTING, (stored) => {
    const prompts = [...(stored ?? [])];
    for (const prompt of incoming) {
      const here = prompts.find((p) => p.id === prompt.id || sameName(p.name, prompt.name));
      if (!here) {
        if (prompts.length >= MAX_PROMPTS) {
          report.conflicts.push(`The prompt "${prompt.name}": the library is full, not restored`);
          continue;
        }
        prompts.push(prompt);
        report.restored.push(`prompt ${prompt.name}`);
      } else if (here.text === prompt.text && sameName(here.name, prompt.name)) report.unchanged++;
      else
        report.conflicts.push(
          `The prompt "${here.name}" here differs from the backup's "${prompt.name}": yours is kept`,
        );
    }
    return prompts;
  });
}
