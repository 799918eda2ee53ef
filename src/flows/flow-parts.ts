// Parts of a flow file that stand on their own: a start node's form (Flowise V2's form input) and
// the canvas's notes. flow.ts re-exports them (they live apart to keep flow.ts within its size).

export const FORM_FIELD_TYPES = ['string', 'number', 'boolean', 'options'] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** A field of a start form. */
export interface FormField {
  /** The key its value is read by (`{{form.name}}`); an identifier. */
  name: string;
  label?: string;
  type: FormFieldType;
  /** The choices, for `options`. */
  options?: string[];
}

export interface StartForm {
  title?: string;
  description?: string;
  fields: FormField[];
}

/** The state key a start form's values go to (the user message's `stateDelta`: rewinds restore it). */
export const FORM_STATE_KEY = 'form';

/** A note on the canvas (Flowise's sticky note); it does not run. */
export interface FlowNote {
  id: string;
  text: string;
  position?: { x: number; y: number };
  size?: { width: number; height: number };
}
