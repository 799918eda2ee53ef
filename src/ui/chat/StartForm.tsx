import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { RefObject } from 'preact';
import type { FormField, StartForm as Form } from '../../flows/flow.ts';
import {
  checkDraft,
  emptyDraft,
  fieldLabel,
  formText,
  type FormDraft,
  type FormValues,
} from './start-form-model.ts';
import './start-form.css';

interface Props {
  form: Form;
  running: boolean;
  /** Nothing can be sent now (the session is opening, or another tab runs it). */
  disabled: boolean;
  /** Approval requests waiting for an answer. */
  approvalsWaiting: number;
  /** A question the agent asked, waiting for its reply (in its own card). */
  questionWaiting: boolean;
  /** `text`: the values as the turn's message, one `Label: value` line per field. */
  onSubmit: (text: string, values: FormValues) => void;
  onTypeInstead: () => void;
  onShowApprovals: () => void;
  onStop: () => void;
}

/**
 * A flow's start form in place of the message box (Flowise V2's form input): a labelled control
 * per field, Enter in a text field submits, what is missing is said beside its field. While a
 * run goes on or waits for an answer its fields fold away (the chat keeps the room) and come
 * back, with what was sent, for the next run.
 */
export function StartForm(props: Props) {
  const { form, running, disabled, approvalsWaiting, questionWaiting } = props;
  const id = useId();
  const [draft, setDraft] = useState<FormDraft>(() => emptyDraft(form));
  const [tried, setTried] = useState(false);
  // Bumped by a refused Submit: the first field it names gets the focus, once drawn.
  const [refusals, setRefusals] = useState(0);
  const root = useRef<HTMLFormElement>(null);
  const waiting = approvalsWaiting > 0 || questionWaiting;
  const folded = running || waiting;
  const check = checkDraft(form, draft);
  const problems = tried && !check.ok ? check.problems : {};
  useFoldFocus(root, running ? 'running' : waiting ? 'waiting' : 'open');
  useLayoutEffect(() => {
    if (refusals > 0) root.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  const submit = () => {
    if (disabled || folded) return;
    if (!check.ok) {
      setTried(true);
      setRefusals((count) => count + 1);
      return;
    }
    setTried(false);
    props.onSubmit(formText(form, check.values), check.values);
  };
  const set = (name: string, value: string | boolean) =>
    setDraft((current) => ({ ...current, [name]: value }));

  return (
    <form
      ref={root}
      class="composer start-form"
      aria-labelledby={`${id}-title`}
      {...(form.description ? { 'aria-describedby': `${id}-description` } : {})}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && running) {
          event.preventDefault();
          props.onStop();
        }
      }}
    >
      <div class="start-form-head">
        <h2 id={`${id}-title`}>{form.title ?? 'Start form'}</h2>
        <button type="button" class="quiet" onClick={props.onTypeInstead}>
          Type a message instead
        </button>
      </div>
      {form.description && (
        <p id={`${id}-description`} class="hint">
          {form.description}
        </p>
      )}
      {approvalsWaiting > 0 && (
        <p class="composer-note" role="status">
          {approvalsWaiting === 1 ? 'An approval is' : `${approvalsWaiting} approvals are`} waiting
          for your answer.{' '}
          <button type="button" class="quiet" onClick={props.onShowApprovals}>
            Answer it
          </button>{' '}
          The form starts the next run, once this one ends.
        </p>
      )}
      {questionWaiting && approvalsWaiting === 0 && (
        <p class="composer-note" role="status">
          The agent asked you a question: reply to it above. The form starts the next run.
        </p>
      )}
      {!folded && (
        <fieldset disabled={disabled}>
          {form.fields.map((field, index) => (
            <Field
              key={field.name}
              field={field}
              // By place, not by name: a name need not make a valid id.
              id={`${id}-field-${index}`}
              value={draft[field.name]}
              problem={problems[field.name]}
              first={field === form.fields[0]}
              onChange={(value) => set(field.name, value)}
            />
          ))}
        </fieldset>
      )}
      <div class="start-form-actions">
        {running ? (
          <button type="button" class="danger" onClick={props.onStop}>
            Stop
          </button>
        ) : (
          <button type="submit" class="primary" disabled={disabled || folded}>
            Submit
          </button>
        )}
      </div>
    </form>
  );
}

interface FieldProps {
  field: FormField;
  id: string;
  value: string | boolean | undefined;
  problem: string | undefined;
  /** The one the focus goes to when the form shows (message-box-focus.ts). */
  first: boolean;
  onChange: (value: string | boolean) => void;
}

/** One labelled control, and what is wrong with its value beside it. */
function Field({ field, id, value, problem, first, onChange }: FieldProps) {
  const label = fieldLabel(field);
  const said = problem ? { 'aria-describedby': `${id}-problem` } : {};
  const mark = first ? { 'data-first-field': '' } : {};
  const text = typeof value === 'string' ? value : '';
  return (
    <div class={`start-form-field${field.type === 'boolean' ? ' boolean' : ''}`}>
      {field.type === 'boolean' ? (
        <label>
          <input
            type="checkbox"
            id={id}
            checked={value === true}
            onChange={(event) => onChange(event.currentTarget.checked)}
            {...mark}
          />
          {label}
        </label>
      ) : (
        <>
          <label for={id}>{label}</label>
          {field.type === 'options' ? (
            <select
              id={id}
              value={text}
              aria-required="true"
              aria-invalid={problem ? 'true' : undefined}
              onChange={(event) => onChange(event.currentTarget.value)}
              {...said}
              {...mark}
            >
              <option value="">Choose…</option>
              {field.options?.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={id}
              // A number in a text box, as GOV.UK advises: `type="number"` would drop what does
              // not parse (the check could not say why) and change the value on a scroll.
              type="text"
              inputMode={field.type === 'number' ? 'decimal' : undefined}
              autoComplete="off"
              value={text}
              aria-required="true"
              aria-invalid={problem ? 'true' : undefined}
              onInput={(event) => onChange(event.currentTarget.value)}
              {...said}
              {...mark}
            />
          )}
        </>
      )}
      {problem && (
        <p id={`${id}-problem`} class="field-problem">
          {problem}
        </p>
      )}
    </div>
  );
}

/**
 * Where the focus goes as the form changes (when it was in the form, or lost with the button
 * pressed): to Stop while a run goes on, to Answer it while an approval waits, then back to the
 * first field. Not to a field on a touch screen, where it opens the on-screen keyboard over the
 * answer.
 */
function useFoldFocus(
  root: RefObject<HTMLFormElement | null>,
  mode: 'running' | 'waiting' | 'open',
): void {
  const was = useRef(mode);
  useLayoutEffect(() => {
    if (was.current === mode) return;
    was.current = mode;
    const form = root.current;
    const active = document.activeElement;
    if (!form || !(active === null || active === document.body || form.contains(active))) return;
    if (mode === 'running') form.querySelector<HTMLElement>('.start-form-actions .danger')?.focus();
    else if (mode === 'waiting') form.querySelector<HTMLElement>('.composer-note button')?.focus();
    else if (!matchMedia('(pointer: coarse)').matches)
      form.querySelector<HTMLElement>('[data-first-field]')?.focus();
  }, [mode]);
}
