// An agent's two names: the one the user gives it ("Trip planner", any text) and the identifier
// ADK needs (`trip_planner`): the author of its events, the name other agents transfer to. ADK
// Python takes only an identifier (letters, digits and _, not starting with a digit) and never
// "user", so the identifier is made from the display name, unique among the user's agents.
// Data only: the page imports it.

/** The longest display name. */
export const MAX_DISPLAY_NAME = 80;
/** The longest identifier (as agent-spec.ts's limit). */
const MAX_IDENTIFIER = 64;

/**
 * The identifier for an agent shown as `displayName`: its letters (accents dropped) and digits,
 * lower-cased, the rest as single underscores; `agent` when nothing is left, `agent_…` when it
 * would start with a digit, `user_agent` for "user"; and `_2`, `_3`… while one of `taken` has it.
 */
export function agentIdentifier(displayName: string, taken: Iterable<string> = []): string {
  const words = displayName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  let base = words || 'agent';
  if (/^\d/.test(base)) base = `agent_${base}`;
  if (base === 'user') base = 'user_agent';
  base = base.slice(0, MAX_IDENTIFIER).replace(/_+$/, '');
  const used = new Set(taken);
  let name = base;
  for (let n = 2; used.has(name); n++) {
    const suffix = `_${n}`;
    name = `${base.slice(0, MAX_IDENTIFIER - suffix.length)}${suffix}`;
  }
  return name;
}

/** What an agent is called where the user reads it: its display name, else its identifier. */
export function shownName(agent: { name: string; displayName?: string | undefined }): string {
  return agent.displayName ?? agent.name;
}
