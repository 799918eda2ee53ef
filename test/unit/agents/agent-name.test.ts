// An agent's display name and the identifier ADK needs (issue 27): the builder takes any name
// ("Trip planner") and makes the identifier from it (trip_planner), unique among the user's
// agents; ADK itself (@google/adk's LlmAgent, which refuses a name that is not an identifier)
// takes every one it makes.

import { LlmAgent as AdkLlmAgent } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { agentIdentifier, shownName } from '../../../src/agents/agent-name.ts';

describe('agent identifiers', () => {
  it.each([
    ['Trip planner', 'trip_planner'],
    ['  Réservé — café  ', 'reserve_cafe'],
    ['3 wise men', 'agent_3_wise_men'],
    ['user', 'user_agent'],
    ['旅行', 'agent'],
    ['', 'agent'],
    ['a-b.c/d', 'a_b_c_d'],
    ['x'.repeat(100), 'x'.repeat(64)],
  ])('makes %j an identifier: %j', (displayName, identifier) => {
    expect(agentIdentifier(displayName)).toBe(identifier);
    // ADK's own agent takes it (its constructor throws on a name it refuses).
    expect(() => new AdkLlmAgent({ name: identifier, model: 'gemini-2.5-flash' })).not.toThrow();
  });

  it('is unique among the other agents’ identifiers', () => {
    expect(agentIdentifier('Trip planner', ['trip_planner'])).toBe('trip_planner_2');
    expect(agentIdentifier('Trip planner', ['trip_planner', 'trip_planner_2'])).toBe(
      'trip_planner_3',
    );
    expect(agentIdentifier('x'.repeat(100), ['x'.repeat(64)])).toBe(`${'x'.repeat(62)}_2`);
  });

  it('ADK refuses the names it does not make', () => {
    expect(() => new AdkLlmAgent({ name: 'Trip planner', model: 'm' })).toThrow(/valid identifier/);
  });

  it('shows an agent by its display name, or an older one by its identifier', () => {
    expect(shownName({ name: 'trip_planner', displayName: 'Trip planner' })).toBe('Trip planner');
    expect(shownName({ name: 'calc' })).toBe('calc');
  });
});
