// The node form of the Flows view, its pure part: a node's fields (node-fields.ts) as the form
// shows them, and the flow text with one node's field changed, so that the form and the JSON
// editor are two views of one text. Also the flow's own fields: its name, description and state.

import { flowText } from './flow-editor-model.ts';
import type { FieldSpec } from './node-fields.ts';

export type Row = Record<string, string>;

/**
 * The flow's state keys as the State form shows them (each default as JSON, a text as it is);
 * undefined when the text is no flow.
 */
export function stateOf(text: string): { state: Row[] } | undefined {
  const flow = parse(text);
  if (!flow) return undefined;
  const entries = Array.isArray(flow.state) ? (flow.state as Record<string, unknown>[]) : [];
  return {
    state: entries.map((entry) => ({
      key: typeof entry?.key === 'string' ? entry.key : '',
      operation: typeof entry?.operation === 'string' ? entry.operation : '',
      default:
        entry?.default === undefined
          ? ''
          : typeof entry.default === 'string'
            ? entry.default
            : JSON.stringify(entry.default),
    })),
  };
}

/** The flow text with its state keys set from the State form's rows (undefined: no flow). */
export function withState(text: string, rows: readonly Row[]): string | undefined {
  const flow = parse(text);
  if (!flow) return undefined;
  const state = rows
    .filter((row) => Object.values(row).some((cell) => cell.trim()))
    .map((row) => ({
      key: row.key ?? '',
      operation: row.operation || 'replace',
      ...(row.default ? { default: jsonOrText(row.default) } : {}),
    }));
  const next = { ...flow };
  if (state.length > 0) next.state = state;
  else delete next.state;
  return flowText(next);
}

/** A cell typed as JSON (`[]`, `null`, `3`, `{"a": 1}`) is that value; anything else, the text. */
function jsonOrText(cell: string): unknown {
  try {
    return JSON.parse(cell);
  } catch {
    return cell;
  }
}

/** The flow's name and description as its details form shows them; undefined: no flow. */
export function detailsOf(text: string): { name: string; description: string } | undefined {
  const flow = parse(text);
  if (!flow) return undefined;
  const said = (value: unknown) => (typeof value === 'string' ? value : '');
  return { name: said(flow.name), description: said(flow.description) };
}

/** The flow text with its name or description set (an empty description is removed). */
export function withDetail(
  text: string,
  key: 'name' | 'description',
  value: string,
): string | undefined {
  const flow = parse(text);
  if (!flow) return undefined;
  const next = { ...flow, [key]: value };
  if (key === 'description' && !value) delete next.description;
  return flowText(next);
}

/** A node as the form shows it: the node's own object, or undefined when the text is no flow. */
export function nodeOf(text: string, nodeId: string): Record<string, unknown> | undefined {
  const flow = parse(text);
  const nodes = Array.isArray(flow?.nodes) ? (flow.nodes as unknown[]) : [];
  return nodes.find(
    (node): node is Record<string, unknown> =>
      !!node && typeof node === 'object' && (node as { id?: unknown }).id === nodeId,
  );
}

/** A field's value in the node (`a.b`: field `b` of the node's object `a`). */
export function valueAt(node: Record<string, unknown>, key: string): unknown {
  let value: unknown = node;
  for (const part of key.split('.'))
    value = isRecord(value) ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/** A field's rows for the table (an array of objects, or a map shown as key/value rows). */
export function rowsOf(node: Record<string, unknown>, field: FieldSpec): Row[] {
  const value = valueAt(node, field.key);
  if (field.map) {
    return value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).map(([key, v]) => ({ key, value: String(v) }))
      : [];
  }
  return Array.isArray(value)
    ? value.map((row) =>
        Object.fromEntries(
          (field.columns ?? []).map((column) => {
            const cell = (row as Record<string, unknown>)?.[column.key];
            return [
              column.key,
              Array.isArray(cell) ? cell.join(', ') : cell == null ? '' : String(cell),
            ];
          }),
        ),
      )
    : [];
}

/** The value a field's input gives, as the flow stores it (undefined: the field is left out). */
export function valueOf(field: FieldSpec, input: string | boolean | Row[]): unknown {
  switch (field.kind) {
    case 'boolean':
      return input === true ? true : undefined;
    case 'number': {
      const number = Number(input);
      return input === '' || !Number.isFinite(number) ? undefined : number;
    }
    case 'list': {
      const items = String(input)
        .split(/[\n,]/)
        .map((item) => item.trim())
        .filter(Boolean);
      return items.length > 0 ? items : undefined;
    }
    case 'rows': {
      const rows = (input as Row[]).filter((row) => Object.values(row).some((v) => v.trim()));
      if (field.map) {
        const map = Object.fromEntries(
          rows.filter((row) => row.key).map((row) => [row.key, row.value ?? '']),
        );
        return Object.keys(map).length > 0 ? map : undefined;
      }
      if (rows.length === 0) return undefined;
      const lists = new Set(field.columns?.filter((c) => c.list).map((c) => c.key));
      return rows.map((row) => {
        const out: Record<string, unknown> = {};
        for (const [key, cell] of Object.entries(row)) {
          if (cell === '') continue;
          out[key] = lists.has(key)
            ? cell
                .split(',')
                .map((v) => v.trim())
                .filter(Boolean)
            : cell;
        }
        return out;
      });
    }
    default:
      return input === '' ? undefined : input;
  }
}

/**
 * The flow text with one field of a node set (or removed, for undefined; an object of the node
 * left empty goes too); undefined when the text is not a flow the form can edit (it does not
 * parse, or has no such node).
 */
export function withField(
  text: string,
  nodeId: string,
  key: string,
  value: unknown,
): string | undefined {
  const flow = parse(text);
  if (!flow || !Array.isArray(flow.nodes)) return undefined;
  let found = false;
  const nodes = (flow.nodes as Record<string, unknown>[]).map((node) => {
    if (node?.id !== nodeId) return node;
    found = true;
    return setAt(node, key.split('.'), value);
  });
  return found ? flowText({ ...flow, nodes }) : undefined;
}

function setAt(
  object: Record<string, unknown>,
  [head, ...rest]: string[],
  value: unknown,
): Record<string, unknown> {
  const next = { ...object };
  const inner: unknown =
    rest.length === 0
      ? value
      : setAt(
          isRecord(object[head!]) ? (object[head!] as Record<string, unknown>) : {},
          rest,
          value,
        );
  if (inner === undefined || (rest.length > 0 && Object.keys(inner as object).length === 0))
    delete next[head!];
  else next[head!] = inner;
  return next;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
