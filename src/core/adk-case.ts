// ADK's session JSON comes in two spellings: camelCase (ADK's API servers, ADK TypeScript, what
// Trellis writes) and snake_case (ADK Python's pydantic field names, as `adk run --save_session`
// and ADK's eval and test fixtures write them: `invocation_id`, `state_delta`, …). A file is one
// or the other; this reads a snake_case file into camelCase.
//
// What must stay true: only ADK's own field names are renamed. The values of the fields that hold
// the user's data — state and state deltas, a function call's args and a function's response,
// custom metadata, an agent's state, a confirmation's payload, a workflow node's output, the file
// names of an artifact delta — are copied exactly as they are, whatever their keys look like.
// (A streamed call's `partial_args` is a list of ADK objects, `json_path`, `string_value`, …: it
// is renamed like any other.)

import { setOwn } from './state.ts';

/** Fields whose value is the user's (or a tool's) data: copied as it is. */
const OPAQUE = new Set([
  'state',
  'stateDelta',
  'artifactDelta',
  'args',
  'response',
  'customMetadata',
  'agentState',
  'payload',
  'output',
]);

/** Fields whose keys are ids (of calls): kept, while their values are ADK objects. */
const KEYED_BY_ID = new Set(['requestedToolConfirmations', 'requestedAuthConfigs']);

/** The snake_case field names that only ADK Python's spelling has, at the levels where they sit. */
const SESSION_MARKS = ['app_name', 'user_id', 'last_update_time'];
const EVENT_MARKS = ['invocation_id', 'long_running_tool_ids', 'turn_complete', 'error_code'];
const ACTION_MARKS = ['state_delta', 'artifact_delta', 'transfer_to_agent'];

export type AdkSpelling = 'camelCase' | 'snake_case';

/** How a parsed session file spells ADK's fields (camelCase when it cannot tell). */
export function adkSpelling(json: Record<string, unknown>): AdkSpelling {
  if (SESSION_MARKS.some((key) => Object.hasOwn(json, key))) return 'snake_case';
  const events = Array.isArray(json.events) ? json.events.slice(0, 20) : [];
  for (const event of events) {
    if (!isRecord(event)) continue;
    if (EVENT_MARKS.some((key) => Object.hasOwn(event, key))) return 'snake_case';
    const { actions } = event;
    if (isRecord(actions) && ACTION_MARKS.some((key) => Object.hasOwn(actions, key)))
      return 'snake_case';
  }
  return 'camelCase';
}

/** `state_delta` → `stateDelta`; a name without underscores inside is returned as it is. */
export function camelName(name: string): string {
  return name.replace(/(?<=[a-zA-Z0-9])_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** A snake_case session file (already parsed) with ADK's field names in camelCase. */
export function camelizeAdk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeAdk);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const name = camelName(key);
    let converted: unknown;
    if (OPAQUE.has(name)) converted = field;
    else if (KEYED_BY_ID.has(name) && isRecord(field)) {
      const byId: Record<string, unknown> = {};
      for (const [id, entry] of Object.entries(field)) setOwn(byId, id, camelizeAdk(entry));
      converted = byId;
    } else converted = camelizeAdk(field);
    // Defined, not assigned: a `__proto__` field stays a field.
    setOwn(out, name, converted);
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
