// Agent builder specs for tests: a valid spec to change, and a lookup over some specs.

import type { AgentSpec } from '../../src/agents/agent-spec.ts';

/** A valid spec (`helper`, id `a1`, on provider `p1` with the calculator), with `overrides`. */
export function specOf(overrides: Partial<AgentSpec> = {}): AgentSpec {
  return {
    id: 'a1',
    name: 'helper',
    description: 'Helps.',
    providerId: 'p1',
    model: 'fixture-text',
    instruction: 'Be brief.',
    tools: ['calculator'],
    subAgentIds: [],
    resumable: true,
    ...overrides,
  };
}

/** Each spec by its id. */
export const lookupOf = (...specs: AgentSpec[]) => {
  const byId = new Map(specs.map((s) => [s.id, s]));
  return (id: string) => byId.get(id);
};
