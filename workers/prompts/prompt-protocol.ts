// What crosses the worker boundary about the prompt library (workers/prompts/prompts.ts): plain
// data only. `protocol.ts` re-exports it, as the page may import nothing else of the worker's.

/** Prompts the library holds at most (one settings record: see prompts.ts). */
export const MAX_PROMPTS = 500;
export const PROMPT_NAME_CHARS = 100;
export const PROMPT_TEXT_CHARS = 20_000;

/** A saved prompt: its text may hold variables written `{{name}}` (src/ui/prompts/prompt-text.ts). */
export interface PromptRecord {
  id: string;
  /** What `/` in the message box finds it by; unique, whatever the case. */
  name: string;
  text: string;
  updatedAt: number;
}

/** A prompt to save: a new one without `id`, or the one with that id changed. */
export interface PromptInput {
  id?: string;
  name: string;
  text: string;
}

/** What an import of prompts did. */
export interface PromptImport {
  /** Names of the prompts added. */
  added: string[];
  /** Prompts the library held already, word for word. */
  unchanged: number;
  /** Names taken here by another text: the library's own is kept. */
  conflicts: string[];
}
