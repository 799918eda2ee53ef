import { useEffect, useRef, useState } from 'preact/hooks';
import {
  NODE_FIELDS,
  STATE_FIELD,
  rowsOf,
  valueOf,
  type FieldSpec,
  type Row,
} from './node-form-model.ts';
import type { FlowNodeType } from '../../flows/flow.ts';
import { PALETTE } from './canvas/canvas-model.ts';

/** The id of the list of the providers' models a Model field offers (see FlowsView). */
export const MODEL_CHOICES_ID = 'flow-model-choices';

interface Props {
  node: Record<string, unknown>;
  /** The node's problems, as the flow's check found them. */
  problems: readonly string[];
  readOnly: boolean;
  /** The tools a Tools field offers (the demo tools, and the tool servers' `Server/tool`). */
  toolChoices?: readonly string[];
  onChange: (key: string, value: unknown) => void;
  onClose: () => void;
}

/** The form of the node selected on the graph, in Flowise's terms; it edits the flow's JSON. */
export function NodeForm({ node, problems, readOnly, toolChoices = [], onChange, onClose }: Props) {
  const type = node.type as FlowNodeType;
  const fields = NODE_FIELDS[type] ?? [];
  const id = String(node.id);
  const form = useRef<HTMLElement>(null);
  // A node chosen on the canvas opens its form below it: brought into view if it starts out of
  // it, so that choosing a node visibly opens something (the canvas stays where it is otherwise).
  useEffect(() => {
    const box = form.current?.getBoundingClientRect();
    if (box && box.top > window.innerHeight - 48)
      form.current!.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [id]);
  return (
    <section class="node-form" aria-label={`Node ${id}`} ref={form}>
      <header>
        <h3>{nodeHeading(node)}</h3>
        <button type="button" class="quiet" onClick={onClose}>
          Close
        </button>
      </header>
      {problems.length > 0 && (
        <ul class="node-problems" role="alert">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <fieldset disabled={readOnly}>
        {fields.map((field) => (
          <Field
            key={`${id} ${field.key}`}
            node={node}
            field={field}
            toolChoices={toolChoices}
            onChange={onChange}
          />
        ))}
      </fieldset>
    </section>
  );
}

/** The flow's state keys (Flowise's State node): key, Replace or Append, and a default. */
export function FlowStateForm({
  state,
  readOnly,
  onRows,
  onClose,
}: {
  state: { state: Row[] };
  readOnly: boolean;
  onRows: (rows: Row[]) => void;
  onClose: () => void;
}) {
  return (
    <section class="node-form" aria-label="Flow state">
      <header>
        <h3>
          State <span class="hint">the flow's keys, shared by every node</span>
        </h3>
        <button type="button" class="quiet" onClick={onClose}>
          Close
        </button>
      </header>
      <fieldset disabled={readOnly}>
        <RowsField node={state} field={STATE_FIELD} onRows={onRows} />
      </fieldset>
    </section>
  );
}

function Field({
  node,
  field,
  toolChoices,
  onChange,
}: {
  node: Record<string, unknown>;
  field: FieldSpec;
  toolChoices: readonly string[];
  onChange: (key: string, value: unknown) => void;
}) {
  const value = node[field.key];
  const set = (input: string | boolean | Row[]) => onChange(field.key, valueOf(field, input));
  switch (field.kind) {
    case 'boolean':
      return (
        <label class="check">
          <input
            type="checkbox"
            checked={value === true}
            onChange={(event) => set(event.currentTarget.checked)}
          />{' '}
          {field.label}
        </label>
      );
    case 'longText':
      return (
        <label>
          {field.label}
          <textarea
            rows={4}
            value={typeof value === 'string' ? value : ''}
            onInput={(event) => set(event.currentTarget.value)}
          />
        </label>
      );
    case 'choice':
      return (
        <label>
          {field.label}
          <select
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => set(event.currentTarget.value)}
          >
            {(field.choices ?? []).map((choice) => (
              <option key={choice} value={choice}>
                {choice || '(default)'}
              </option>
            ))}
          </select>
        </label>
      );
    case 'list':
      return (
        <ListField
          label={field.label}
          item={field.item ?? 'item'}
          value={Array.isArray(value) ? value.join('\n') : ''}
          choices={field.suggestions === 'tools' ? toolChoices : []}
          onInput={set}
        />
      );
    case 'rows':
      return <RowsField node={node} field={field} onRows={set} />;
    case 'number':
      return (
        <label>
          {field.label}
          <input
            type="number"
            value={value == null ? '' : String(value)}
            onInput={(event) => set(event.currentTarget.value)}
          />
        </label>
      );
    default:
      return (
        <label>
          {field.label}
          <input
            type="text"
            value={value == null ? '' : String(value)}
            placeholder={field.hint}
            {...(field.suggestions === 'models' ? { list: MODEL_CHOICES_ID } : {})}
            onInput={(event) => set(event.currentTarget.value)}
          />
        </label>
      );
  }
}

/** A table field (rules, structured output, update state): a row per entry, Add and Remove. */
function RowsField({
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
  const rows = [...stored, ...extra];
  const columns = field.columns ?? [];
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
                      value={row[column.key] ?? ''}
                      onInput={(event) => change(index, column.key, event.currentTarget.value)}
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
 * A list typed one item a line. What the user types stays as typed while the box has the focus
 * (the flow keeps only the items, so a new line or a comma just typed would vanish if the box
 * showed the flow's value at every keystroke); it shows the flow's items again once left.
 */
function ListField({
  label,
  item,
  value,
  choices,
  onInput,
}: {
  label: string;
  item: string;
  value: string;
  /** Items to add from a list (those not in it already). */
  choices: readonly string[];
  onInput: (text: string) => void;
}) {
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const text = typed ?? value;
  const items = text.split('\n').map((line) => line.trim());
  const left = choices.filter((choice) => !items.includes(choice));
  return (
    <>
      <label>
        {label} <span class="hint">(one {item} a line)</span>
        <textarea
          rows={3}
          value={text}
          onInput={(event) => {
            setTyped(event.currentTarget.value);
            onInput(event.currentTarget.value);
          }}
          onBlur={() => setTyped(undefined)}
        />
      </label>
      {left.length > 0 && (
        <select
          aria-label={`Add a ${item}`}
          value=""
          onChange={(event) => {
            const choice = event.currentTarget.value;
            if (!choice) return;
            const next = [...items.filter(Boolean), choice].join('\n');
            setTyped(undefined);
            onInput(next);
          }}
        >
          <option value="">Add a {item}…</option>
          {left.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      )}
    </>
  );
}

/**
 * A node form's heading: the node's name, then its type in Flowise's word and its id where they
 * say something more ("Condition", not "condition condition"; "Billing · Agent · billing").
 */
export function nodeHeading(node: Record<string, unknown>): string {
  const id = String(node.id);
  const name = typeof node.label === 'string' && node.label.trim() ? node.label.trim() : id;
  const type = PALETTE.find((item) => item.type === node.type)?.label ?? String(node.type);
  const seen = new Set([name.toLowerCase()]);
  const parts = [name];
  for (const part of [type, id])
    if (!seen.has(part.toLowerCase())) {
      seen.add(part.toLowerCase());
      parts.push(part);
    }
  return parts.join(' · ');
}
