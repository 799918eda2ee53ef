// The agent builder's "Knowledge" group: one checkbox per knowledge base, saved as the agent's
// `knowledgeBaseIds` (its search_knowledge tool searches those). With none, a line says where
// bases are made.

import type { KnowledgeBaseInfo } from '../../../workers/protocol.ts';

interface Props {
  bases: readonly KnowledgeBaseInfo[];
  chosen: readonly string[];
  onChange: (ids: string[] | undefined) => void;
}

export function KnowledgeChoices({ bases, chosen, onChange }: Props) {
  // A base deleted since stays listed while chosen, so that unticking it is possible.
  const gone = chosen.filter((id) => !bases.some((base) => base.id === id));
  const set = (id: string, on: boolean) => {
    const rest = chosen.filter((entry) => entry !== id);
    const next = on ? [...rest, id] : rest;
    // None is left out of the spec (the draft then equals one saved without the field).
    onChange(next.length > 0 ? next : undefined);
  };
  return (
    <fieldset class="choices">
      <legend>Knowledge</legend>
      {bases.length === 0 && gone.length === 0 && (
        <p class="hint">
          Make a knowledge base in Settings → Knowledge: the agent can then search its documents and
          cite them.
        </p>
      )}
      {bases.map((base) => (
        <label key={base.id} class="check" title={base.description}>
          <input
            type="checkbox"
            checked={chosen.includes(base.id)}
            onChange={(e) => set(base.id, e.currentTarget.checked)}
          />{' '}
          {base.name}
        </label>
      ))}
      {gone.map((id) => (
        <label key={id} class="check">
          <input type="checkbox" checked onChange={() => set(id, false)} /> (a deleted knowledge
          base)
        </label>
      ))}
    </fieldset>
  );
}
