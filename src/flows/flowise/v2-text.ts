// The text of an Agentflow V2 field as a Trellis flow's text. Flowise 3 saves prompts and values
// as the HTML of its rich-text editor (TipTap: paragraphs, line breaks, lists, bold, code, and
// variables as `<span class="variable" data-id="$flow.state.x">{{ $flow.state.x }}</span>`), so
// the text is what those paragraphs say, one per line, with the entities read; and its variables
// are Trellis's templates where there is one:
//
//   {{ question }}                    → {{question}}
//   {{ $flow.state.x }}               → {{state.x}}
//   {{ output }}, {{ output.key }}    → {{output}}, {{output.key}}
//   {{ llmAgentflow_0 }} / .output.k  → {{nodes.<its id here>}} / {{nodes.<id>.k}}
//
//   {{ $form.x }}                     → {{form.x}}
//   {{ $iteration }}, {{ $iteration.k }} → {{iteration.item}}, {{iteration.item.k}}
//
//   {{ current_date_time }}           → {{current_date_time}} (the time it is read)
//
// Anything else (`$vars`, `chat_history`, `runtime_messages_length`, …) is kept as written, and
// said.
// Only this editor's markup is read: it is not a general HTML reader (none is needed for it).

/** What a converted text refers to that has no Trellis counterpart, to report. */
export interface V2Text {
  text: string;
  unknown: string[];
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** The editor's HTML as plain text: a line per paragraph, list item or break. */
export function htmlText(value: string): string {
  if (!/<[a-z/]/i.test(value)) return value;
  return value
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '\n- ')
    .replace(/<\/(p|div|h[1-6]|pre|blockquote|ul|ol)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * A V2 field's text with its variables as Trellis templates. `nodeId` maps a Flowise node id
 * (`llmAgentflow_0`) to the node's id here, or undefined for a node that did not come over.
 */
export function v2Text(value: unknown, nodeId: (flowiseId: string) => string | undefined): V2Text {
  const unknown: string[] = [];
  const source = typeof value === 'string' ? value : '';
  const text = htmlText(source).replace(/\{\{([^{}]*)\}\}/g, (whole, inner: string) => {
    const made = template(inner.trim(), nodeId);
    if (made === undefined) {
      unknown.push(inner.trim());
      return whole;
    }
    return made;
  });
  return { text, unknown };
}

function template(
  path: string,
  nodeId: (flowiseId: string) => string | undefined,
): string | undefined {
  if (path === 'question' || path === 'current_date_time') return `{{${path}}}`;
  if (path === 'output' || path.startsWith('output.')) return `{{${path}}}`;
  const state = /^\$flow\.state\.(.+)$/.exec(path);
  if (state) return `{{state.${state[1]}}}`;
  const form = /^\$form\.([\w.]+)$/.exec(path);
  if (form) return `{{form.${form[1]}}}`;
  // Flowise reads `$iteration.x` in the item itself (`$iteration` alone is the item).
  const iteration = /^\$iteration((?:\.[\w-]+)*)$/.exec(path);
  if (iteration) return `{{iteration.item${iteration[1] ?? ''}}}`;
  const node = /^([A-Za-z][\w]*_\d+)(?:\.output)?((?:\.[\w-]+)*)$/.exec(path);
  if (node) {
    const id = nodeId(node[1]!);
    if (id) return `{{nodes.${id}${node[2] ?? ''}}}`;
  }
  return undefined;
}
