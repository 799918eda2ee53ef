// A flow's start form in the chat (Flowise V2's form input), as pure data: the form read from the
// flow, the user's draft, what is missing or wrong in it, the typed values sent, and the text of
// the turn they start.
// - The text is one line per field, `Label: value`, booleans as `yes` / `no`: History, export and
//   rewind show it, and the worker reads an edited form turn's values back from it
//   (workers/runs/start-form-values.ts reads what `formText` writes; a test pins the two).
// - The values go to the worker as they are typed here (number → number, boolean → boolean,
//   options → the chosen string); it checks them again before anything is written.

import { FLOW_LIMITS } from '../../flows/flow.ts';
import type { StartForm } from '../../flows/flow.ts';
import { fieldLabel, parseNumber } from '../../flows/start-form.ts';

export { fieldLabel, parseNumber, startFormOf } from '../../flows/start-form.ts';

/** The values a form sends, by field name. */
export type FormValues = Readonly<Record<string, string | number | boolean>>;

/** What the user has in the controls: text for texts, numbers and choices; booleans checked. */
export type FormDraft = Readonly<Record<string, string | boolean>>;

export type DraftCheck =
  | { ok: true; values: FormValues }
  /** By field name: what to say beside the field. */
  | { ok: false; problems: Readonly<Record<string, string>> };

/** A form with nothing filled in and every box unchecked. */
export function emptyDraft(form: StartForm): FormDraft {
  return Object.fromEntries(
    form.fields.map((field) => [field.name, field.type === 'boolean' ? false : '']),
  );
}

/**
 * The draft's values, typed, or what is missing or wrong, by field: every field must be filled
 * but booleans (unchecked is `false`).
 */
export function checkDraft(form: StartForm, draft: FormDraft): DraftCheck {
  const values: [string, string | number | boolean][] = [];
  const problems: [string, string][] = [];
  for (const field of form.fields) {
    const raw = draft[field.name];
    if (field.type === 'boolean') {
      values.push([field.name, raw === true]);
      continue;
    }
    const label = fieldLabel(field);
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (!text) problems.push([field.name, `${label} is required.`]);
    else if (field.type === 'number') {
      const number = parseNumber(text);
      if (number === undefined)
        problems.push([field.name, `${label} must be a number, such as 42 or 3.5.`]);
      else values.push([field.name, number]);
    } else if (field.type === 'options' && !field.options?.includes(raw as string))
      problems.push([field.name, `${label} must be one of: ${field.options?.join(', ')}.`]);
    else if (text.length > FLOW_LIMITS.text)
      problems.push([
        field.name,
        `${label} is ${text.length.toLocaleString('en')} characters long; at most ${FLOW_LIMITS.text.toLocaleString('en')}.`,
      ]);
    else values.push([field.name, field.type === 'options' ? (raw as string) : text]);
  }
  if (problems.length > 0) return { ok: false, problems: Object.fromEntries(problems) };
  return { ok: true, values: Object.fromEntries(values) };
}

/** The turn's message: one `Label: value` line per field, in the form's order. */
export function formText(form: StartForm, values: FormValues): string {
  return form.fields
    .map((field) => `${fieldLabel(field)}: ${shown(values[field.name])}`)
    .join('\n');
}

function shown(value: string | number | boolean | undefined): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return value === undefined ? '' : String(value);
}
