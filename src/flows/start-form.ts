// A flow's start form as the chat shows it and the worker checks it (docs/flows.md): the form
// read from a flow (only the fields it can show), the label a field is shown and written by, and
// a number as people write one. The chat (src/ui/chat/start-form-model.ts) and the worker
// (workers/runs/start-form-values.ts) both read forms with these.

import { FORM_FIELD_TYPES } from './flow.ts';
import type { Flow, FormField, StartForm } from './flow.ts';

/**
 * The start form of a flow, with only the fields it can show (a name, a known type, choices for
 * `options`; a name once): undefined when it has none (the chat shows the message box then).
 */
export function startFormOf(flow: Flow | undefined): StartForm | undefined {
  const start = flow?.nodes.find((node) => node.type === 'start');
  const form: unknown = start?.type === 'start' ? start.form : undefined;
  if (!isRecord(form) || !Array.isArray(form.fields)) return undefined;
  const names = new Set<string>();
  const fields = form.fields.filter((field): field is FormField => {
    if (!isField(field) || names.has(field.name)) return false;
    names.add(field.name);
    return true;
  });
  if (fields.length === 0) return undefined;
  return {
    ...(typeof form.title === 'string' && form.title.trim() ? { title: form.title.trim() } : {}),
    ...(typeof form.description === 'string' && form.description.trim()
      ? { description: form.description.trim() }
      : {}),
    fields,
  };
}

/** The name a field is shown and written by: its label, else its name (on one line). */
export const fieldLabel = (field: FormField) =>
  (field.label?.trim() || field.name).replace(/\s+/g, ' ');

/**
 * A number as people write one (`42`, `-3.5`, `.5`, `1e3`), or undefined: not `0x10`, `Infinity`
 * or an empty text, which `Number` would take.
 */
export function parseNumber(text: string): number | undefined {
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(text.trim())) return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

function isField(value: unknown): value is FormField {
  if (!isRecord(value) || typeof value.name !== 'string' || !value.name) return false;
  if (value.label !== undefined && typeof value.label !== 'string') return false;
  if (!(FORM_FIELD_TYPES as readonly unknown[]).includes(value.type)) return false;
  return (
    value.type !== 'options' ||
    (Array.isArray(value.options) &&
      value.options.length > 0 &&
      value.options.every((option) => typeof option === 'string'))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
