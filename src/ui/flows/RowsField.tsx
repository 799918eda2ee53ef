// A table field of a form (rules, structured output, update state, a start form's fields, the
// flow's state keys, a node's knowledge): a row per entry, Add and Remove; a choice column is a
// select, and so is a column that picks a knowledge base.

import { useState } from 'preact/hooks';
import { rowsOf, type Row } from './node-form-model.ts';
import type { FieldSpec } from './node-fields.ts';

export function RowsField({
  node,
  field,
  onRows,
  bases = [],
}: {
  node: Record<string, unknown>;
  field: FieldSpec;
  onRows: (rows: Row[]) => void;
  /** The user's knowledge bases, for a column that picks one (`bases`). */
  bases?: readonly { id: string; name: string }[];
}) {
  const stored = rowsOf(node, field);
  // A row just added is empty: it lives here until it has something to store.
  const [extra, setExtra] = useState<Row[]>([]);
  // The cell being typed in shows what is typed (a list cell's "a, " is stored as ["a"]).
  const [typing, setTyping] = useState<{ at: string; text: string } | undefined>(undefined);
  const rows = [...stored, ...extra];
  const columns = field.columns ?? [];
  const cell = (row: Row, index: number, key: string) =>
    typing?.at === `${index} ${key}` ? typing.text : (row[key] ?? '');
  const change = (index: number, key: string, cell: string) => {
    const next = rows.map((row, i) => (i === index ? { ...row, [key]: cell } : row));
    setExtra([]);
    onRows(next);
  };
  return (
    <fieldset class="rows-field">
      <legend>{field.label}</legend>
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col">
                {column.label}
              </th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              {columns.map((column) => (
                <td key={column.key}>
                  {column.bases ? (
                    <BaseSelect
                      label={`${column.label}, row ${index + 1}`}
                      value={row[column.key] ?? ''}
                      bases={bases}
                      onPick={(id) => change(index, column.key, id)}
                    />
                  ) : column.choices ? (
                    <select
                      aria-label={`${column.label}, row ${index + 1}`}
                      value={row[column.key] ?? ''}
                      onChange={(event) => change(index, column.key, event.currentTarget.value)}
                    >
                      <option value="" />
                      {column.choices.map((choice) => (
                        <option key={choice} value={choice}>
                          {choice}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      aria-label={`${column.label}, row ${index + 1}`}
                      value={cell(row, index, column.key)}
                      onInput={(event) => {
                        const text = event.currentTarget.value;
                        setTyping({ at: `${index} ${column.key}`, text });
                        change(index, column.key, text);
                      }}
                      onBlur={() => setTyping(undefined)}
                    />
                  )}
                </td>
              ))}
              <td>
                <button
                  type="button"
                  class="quiet"
                  aria-label={`Remove row ${index + 1}`}
                  onClick={() => {
                    setExtra([]);
                    onRows(rows.filter((_, i) => i !== index));
                  }}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        onClick={() => setExtra([...extra, Object.fromEntries(columns.map((c) => [c.key, '']))])}
      >
        Add a row
      </button>
    </fieldset>
  );
}

/**
 * Picks one of the user's knowledge bases by name (the flow keeps its id); a base picked before
 * and since deleted stays shown as such until another is picked.
 */
function BaseSelect({
  label,
  value,
  bases,
  onPick,
}: {
  label: string;
  value: string;
  bases: readonly { id: string; name: string }[];
  onPick: (id: string) => void;
}) {
  const gone = value !== '' && !bases.some((base) => base.id === value);
  return (
    <select
      aria-label={label}
      value={value}
      onChange={(event) => onPick(event.currentTarget.value)}
    >
      <option value="">
        {bases.length > 0 ? 'Pick a knowledge base' : 'No knowledge bases yet'}
      </option>
      {gone && <option value={value}>Deleted base ({value})</option>}
      {bases.map((base) => (
        <option key={base.id} value={base.id}>
          {base.name}
        </option>
      ))}
    </select>
  );
}
