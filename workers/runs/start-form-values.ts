// A flow's start form as a run brings its values (Flowise V2's form input): the chat's Submit
// sends them typed beside the turn's text; an edit of a form turn sends only text, from which they
// are read back. Either way they are checked before anything is written, and become the user
// event's `stateDelta` (`{ form: { name: value } }`), which the nodes read as `{{form.name}}` and
// a rewind restores.
// - only the form's own fields, each once; every one but booleans (absent: false) given;
// - each of its type: a string of one line and at most FLOW_LIMITS.text characters, a finite
//   number, a boolean, one of the choices of an `options` field;
// - the text is one `Label: value` line per field, booleans `yes` / `no`: what the chat's
//   src/ui/chat/start-form-model.ts writes (a test pins the two).

import { FLOW_LIMITS, FORM_STATE_KEY } from '../../src/flows/flow.ts';
import type { FormField, StartForm } from '../../src/flows/flow.ts';
import { fieldLabel as label, parseNumber } from '../../src/flows/start-form.ts';
import { isRecord } from '../../src/flows/validate-fields.ts';

export { startFormOf } from '../../src/flows/start-form.ts';
import { InvalidRequestError, isRewindMarker, type Event } from '../../src/index.ts';

type FormValue = string | number | boolean;

const SENT = 'The start form was not sent';
const EDITED = 'The edited form turn was not run';

/**
 * Whether a turn began with a start form's values: its user's message set the form's state key
 * (not a rewind marker's or a state edit's delta, which have no message).
 */
export function isFormTurn(event: Event | undefined): event is Event {
  if (!event || event.author !== 'user' || !event.content || isRewindMarker(event)) return false;
  return Object.hasOwn(event.actions.stateDelta, FORM_STATE_KEY);
}

/** The user event's state delta for values the chat sent; InvalidRequestError if they do not fit. */
export function formDelta(
  form: StartForm,
  values: unknown,
  refusal: string = SENT,
): Record<string, unknown> {
  const refused = (why: string) => new InvalidRequestError(`${refusal}: ${why}.`);
  if (!isRecord(values)) throw refused('its values must be an object, by field name');
  const names = new Set(form.fields.map((field) => field.name));
  const stranger = Object.keys(values).find((key) => !names.has(key));
  if (stranger !== undefined)
    throw refused(`“${cut(stranger)}” is not one of its fields (${[...names].join(', ')})`);
  const typed = form.fields.map((field): [string, FormValue] => [
    field.name,
    checkValue(field, values[field.name], refused),
  ]);
  // fromEntries defines each name as the object's own key, `__proto__` included.
  return { [FORM_STATE_KEY]: Object.fromEntries(typed) };
}

/**
 * The state delta of an edited form turn, read from its text (one `Label: value` line per field,
 * as the chat wrote it); InvalidRequestError, saying which line or field, if it does not read so.
 */
export function formDeltaOfText(form: StartForm, text: string): Record<string, unknown> {
  const refused = (why: string) => new InvalidRequestError(`${EDITED}: ${why}.`);
  // The longest label first: "Age group: 3" is not a line of "Age".
  const byLabel = [...form.fields].sort((a, b) => label(b).length - label(a).length);
  const written = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const field = byLabel.find((candidate) => line.startsWith(`${label(candidate)}:`));
    if (!field)
      throw refused(
        `“${cut(line)}” is not a line of its fields: keep one line per field, as “Label: value”`,
      );
    if (written.has(field.name)) throw refused(`${label(field)} is written twice`);
    written.set(field.name, line.slice(label(field).length + 1).trim());
  }
  const values = form.fields.flatMap((field): [string, FormValue][] => {
    const raw = written.get(field.name);
    if (raw === undefined) return [];
    if (field.type === 'number') return [[field.name, parseNumber(raw) ?? raw]];
    if (field.type !== 'boolean') return [[field.name, raw]];
    const yes = /^(yes|true)$/i.test(raw);
    if (!yes && !/^(no|false)$/i.test(raw)) throw refused(`${label(field)} must be yes or no`);
    return [[field.name, yes]];
  });
  return formDelta(form, Object.fromEntries(values), EDITED);
}

function checkValue(
  field: FormField,
  value: unknown,
  refused: (why: string) => InvalidRequestError,
): FormValue {
  const name = label(field);
  switch (field.type) {
    case 'boolean':
      if (value === undefined) return false;
      if (typeof value !== 'boolean') throw refused(`${name} must be true or false`);
      return value;
    case 'number':
      if (value === undefined || value === '') throw refused(`${name} is missing`);
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw refused(`${name} must be a number`);
      return value;
    case 'string':
    case 'options': {
      if (value === undefined || (typeof value === 'string' && !value.trim()))
        throw refused(`${name} is missing`);
      if (typeof value !== 'string') throw refused(`${name} must be text`);
      if (field.type === 'options' && !field.options?.includes(value))
        throw refused(`${name} must be one of: ${field.options?.join(', ')}`);
      if (value.length > FLOW_LIMITS.text)
        throw refused(`${name} is longer than ${FLOW_LIMITS.text} characters`);
      if (/[\r\n]/.test(value)) throw refused(`${name} must be one line`);
      return value;
    }
  }
}

const cut = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
