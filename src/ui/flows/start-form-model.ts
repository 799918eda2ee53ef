// The start node's form input (Flowise V2's Start → Form Input), its pure part: the `form` the
// start node stores as its form in the node form shows it (a title, a description, a table of
// fields), and back; anything else the `form` holds is kept as it is.

import { FORM_FIELDS } from './node-fields.ts';
import { isRecord, rowsOf, valueOf, type Row } from './node-form-model.ts';

/** What the start form's part of the node form shows. */
export interface StartFormView {
  title: string;
  description: string;
  /** One row per field: name, label, type, options (comma-separated). */
  fields: Row[];
}

/** The start node's form as the node form shows it; undefined when it takes a chat message. */
export function startFormOf(node: Record<string, unknown>): StartFormView | undefined {
  const form = node.form;
  if (!isRecord(form)) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    title: text(form.title),
    description: text(form.description),
    fields: rowsOf(form, FORM_FIELDS),
  };
}

/**
 * The `form` to store for what the node form shows (undefined: none, the start takes a chat
 * message): empty title and description left out, empty rows dropped, a field's type `string`
 * until chosen, its options a list. What else `previous` (the form stored) holds is kept.
 */
export function startFormValue(
  view: StartFormView | undefined,
  previous?: unknown,
): Record<string, unknown> | undefined {
  if (!view) return undefined;
  const {
    title: _title,
    description: _description,
    fields: _fields,
    ...other
  } = isRecord(previous) ? previous : {};
  const rows = (valueOf(FORM_FIELDS, view.fields) as Record<string, unknown>[] | undefined) ?? [];
  return {
    ...(view.title ? { title: view.title } : {}),
    ...(view.description ? { description: view.description } : {}),
    ...other,
    fields: rows.map(({ name, label, type, options }) => ({
      name: name ?? '',
      ...(label !== undefined ? { label } : {}),
      type: type ?? 'string',
      ...(options !== undefined ? { options } : {}),
    })),
  };
}
