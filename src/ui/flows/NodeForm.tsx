// The form of the node selected on the canvas (its fields in node-fields.ts), and the flow's
// State form: each change is the flow's text with that field set (node-form-model.ts).

import './node-form.css';
import { useEffect, useRef } from 'preact/hooks';
import { valueAt, valueOf, type Row } from './node-form-model.ts';
import { NODE_FIELDS, STATE_FIELD, type FieldSpec } from './node-fields.ts';
import type { FlowNodeType } from '../../flows/flow.ts';
import { PALETTE } from './canvas/canvas-model.ts';
import { ListField } from './ListField.tsx';
import { RowsField } from './RowsField.tsx';
import { StartFormField } from './StartFormField.tsx';

/** The id of the list of the providers' models a Model field offers (see FlowsView). */
export const MODEL_CHOICES_ID = 'flow-model-choices';
/** The ids of the lists a field's suggestions come from (the flows' in FlowsView, the tools' here). */
const SUGGESTIONS = {
  models: MODEL_CHOICES_ID,
  flows: 'flow-name-choices',
  tools: 'flow-tool-choices',
} as const;
export const FLOW_CHOICES_ID = SUGGESTIONS.flows;

interface Props {
  node: Record<string, unknown>;
  /** The node's problems, as the flow's check found them. */
  problems: readonly string[];
  readOnly: boolean;
  /** The tools a Tools field offers (the demo tools, and the tool servers' `Server/tool`). */
  toolChoices?: readonly string[];
  /** The user's knowledge bases, which a Knowledge field picks from. */
  bases?: readonly { id: string; name: string }[];
  onChange: (key: string, value: unknown) => void;
  onClose: () => void;
}

/** The form of the node selected on the graph, in Flowise's terms; it edits the flow's JSON. */
export function NodeForm({
  node,
  problems,
  readOnly,
  toolChoices = [],
  bases = [],
  onChange,
  onClose,
}: Props) {
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
      <datalist id={SUGGESTIONS.tools}>
        {toolChoices.map((choice) => (
          <option key={choice} value={choice} />
        ))}
      </datalist>
      <fieldset disabled={readOnly}>
        {fields.map((field) => (
          <Field
            key={`${id} ${field.key}`}
            node={node}
            field={field}
            choices={{ tools: toolChoices, bases }}
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
  choices,
  onChange,
}: {
  node: Record<string, unknown>;
  field: FieldSpec;
  choices: { tools: readonly string[]; bases: readonly { id: string; name: string }[] };
  onChange: (key: string, value: unknown) => void;
}) {
  const value = valueAt(node, field.key);
  const set = (input: string | boolean | Row[]) => onChange(field.key, valueOf(field, input));
  const text = typeof value === 'string' ? value : '';
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
    case 'code':
      return (
        <label>
          <span>
            {field.label}
            {field.hint && <span class="hint"> {field.hint}</span>}
          </span>
          <textarea
            rows={field.kind === 'code' ? 8 : 4}
            class={field.kind === 'code' ? 'code-field' : undefined}
            spellcheck={field.kind !== 'code'}
            value={text}
            onInput={(event) => set(event.currentTarget.value)}
          />
        </label>
      );
    case 'choice':
      return (
        <label>
          {field.label}
          <select value={text} onChange={(event) => set(event.currentTarget.value)}>
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
          choices={field.suggestions === 'tools' ? choices.tools : []}
          onInput={set}
        />
      );
    case 'rows':
      return <RowsField node={node} field={field} onRows={set} bases={choices.bases} />;
    case 'startForm':
      return <StartFormField node={node} onForm={(form) => onChange(field.key, form)} />;
    case 'number':
      return (
        <label>
          {field.label}
          <input
            type="number"
            value={value == null ? '' : String(value)}
            placeholder={field.hint}
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
            {...(field.suggestions ? { list: SUGGESTIONS[field.suggestions] } : {})}
            onInput={(event) => set(event.currentTarget.value)}
          />
        </label>
      );
  }
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
