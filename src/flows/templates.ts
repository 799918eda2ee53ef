// Flowise-style templates: `{{ state.key }}`, `{{ output.field }}`, `{{ question }}`,
// `{{ nodes.id }}`, `{{ form.name }}` and `{{ iteration.item }}` inside the text of a flow
// (instructions, Update State values, condition rules, loop fallbacks, request fields).
//
// Paths are dot-separated. After `state.` the first segment is the state key; it may contain `:`
// (ADK's `user:` / `app:` / `temp:` prefixes), so a key never contains a dot.

/** What templates can see while a node runs. */
export interface TemplateScope {
  state: Readonly<Record<string, unknown>>;
  /** The output of the node that just ran (its text, or its structured output object). */
  output?: unknown;
  /** The user's message that started the run. */
  question?: string;
  /**
   * The latest output of a node of the flow in this session (`{{nodes.id}}`, Flowise's
   * `{{id.data.instance}}`: the last message of that node); undefined if it has not run.
   */
  nodes?: (nodeId: string) => unknown;
  /** The values of the start form the run began with (`{{form.name}}`). */
  form?: unknown;
  /** Inside an Iteration node: the item being run and its index (`{{iteration.item}}`). */
  iteration?: { item: unknown; index: number };
}

/** The roots a path may start with; any other root is left as written (it is not a template). */
export const TEMPLATE_ROOTS = [
  'state',
  'output',
  'question',
  'nodes',
  'form',
  'iteration',
  'current_date_time',
] as const;

// No braces inside, so `{{a}} and {{b}}` is two templates and `{{{x}}}` stays readable. The path
// is trimmed in code, not with `\s*` around a lazy group: that pattern backtracks cubically on a
// "{{" followed by a long run of spaces, and flows come from files.
const TEMPLATE = /\{\{([^{}]*)\}\}/g;
/** A text that is one template and nothing else (a fixed pattern: no text of a flow in it). */
const WHOLE_TEMPLATE = /^\{\{[^{}]*\}\}$/;

/** Every path the text references, in order of appearance (repeats kept). */
export function templateRefs(text: string): string[] {
  return [...text.matchAll(TEMPLATE)].map((match) => match[1]!.trim());
}

/**
 * The value at `path` (`state.key.deeper`, `output`, `output.field`, `question`, `nodes.id`,
 * `nodes.id.field`), or undefined.
 */
export function resolvePath(path: string, scope: TemplateScope): unknown {
  const [root, ...rest] = path.split('.');
  switch (root) {
    case 'state':
      return rest.length === 0 ? undefined : dig(scope.state, rest);
    case 'output':
      return dig(scope.output, rest);
    case 'question':
      return rest.length === 0 ? scope.question : undefined;
    case 'nodes': {
      const [nodeId, ...deeper] = rest;
      return nodeId ? dig(scope.nodes?.(nodeId), deeper) : undefined;
    }
    case 'form':
      return dig(scope.form, rest);
    case 'iteration':
      return dig(scope.iteration, rest);
    case 'current_date_time':
      // Flowise's: the time the text is read, as an ISO date.
      return rest.length === 0 ? new Date().toISOString() : undefined;
    default:
      return undefined;
  }
}

/** The text with each template replaced by its value as text (see `templateText`). */
export function renderTemplate(text: string, scope: TemplateScope): string {
  return text.replace(TEMPLATE, (whole, inside: string) => {
    const path = inside.trim();
    return isKnownRoot(path) ? templateText(resolvePath(path, scope)) : whole;
  });
}

/**
 * The value of a text that is exactly one template (an array stays an array, a number a number;
 * undefined when missing), so `{{output}}` can store a whole structured output in the state.
 * Any other text is rendered to a string.
 */
export function evaluateTemplate(text: string, scope: TemplateScope): unknown {
  const trimmed = text.trim();
  const refs = templateRefs(trimmed);
  const only = refs.length === 1 ? refs[0]! : undefined;
  if (only !== undefined && isKnownRoot(only) && isWholeTemplate(trimmed)) {
    return resolvePath(only, scope);
  }
  return renderTemplate(text, scope);
}

/** How a value reads inside a text: strings as they are, nothing for null, JSON for the rest. */
export function templateText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

function isKnownRoot(path: string): boolean {
  return (TEMPLATE_ROOTS as readonly string[]).includes(path.split('.')[0]!);
}

function isWholeTemplate(text: string): boolean {
  return WHOLE_TEMPLATE.test(text);
}

// Own properties only: `{{state.x.constructor}}` must not reach into prototypes.
function dig(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
