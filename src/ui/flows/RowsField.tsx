// A table field of a form (rules, structured output, update state, a start form's fields, the
// flow's state keys): a row per entry, Add and Remove; a choice column is a select.

import { useState } from 'preact/hooks';
import { rowsOf, type Row } from './node-form-model.ts';
import type { FieldSpec } from './node-fields.ts';

export function RowsField({
  node,
  field,
  onRows,
}: {
  node: Record<string, unknown>;
  field: FieldSpec;
  onRows: (rows: Row[]) => void;
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
                  {column.choices ? (
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
