// "Another of your agents as a tool" in the agent builder: a spec's `agentToolIds` (checked like
// its sub-agents: no unknown id, no circle, no agent both a sub-agent and a tool), built into
// AgentTools (one agent per spec, however many call it), and carried by agent files.

import { describe, expect, it } from 'vitest';
import { parseAgentFile, toAgentFile } from '../../../src/agents/agent-file.ts';
import {
  agentSpecProblems,
  buildSpecAgent,
  specTree,
  specTreeProblems,
  type AgentSpec,
} from '../../../src/agents/agent-spec.ts';
import { AgentTool, LlmAgent, Runner, ScriptedModel } from '../../../src/index.ts';
import { InMemorySessionService } from '../../../src/index.ts';
import { BUILTIN_TOOL_NAMES } from '../../../src/tools/builtin-tools.ts';
import { lookupOf, specOf } from '../../support/agent-specs.ts';

const toolNames = BUILTIN_TOOL_NAMES;

const spec = (overrides: Partial<AgentSpec> = {}) => specOf({ tools: [], ...overrides });

const build = (root: AgentSpec, ...others: AgentSpec[]) =>
  buildSpecAgent(root, {
    lookup: lookupOf(root, ...others),
    model: () => new ScriptedModel(['hi']),
    tools: () => [],
  });

describe('agentToolIds in a spec', () => {
  it('accepts a list of ids, and a spec without one (older agents)', () => {
    expect(agentSpecProblems(spec({ agentToolIds: ['b'] }), { toolNames })).toEqual([]);
    expect(agentSpecProblems(spec(), { toolNames })).toEqual([]);
  });

  it.each([
    [{ agentToolIds: 'b' }, 'agentToolIds must be a list of names'],
    [{ agentToolIds: [1] }, 'agentToolIds must be a list of names'],
    [{ agentToolIds: null }, 'agentToolIds must be a list of names'],
    [{ agentToolIds: ['b', 'b'] }, 'agentToolIds lists b twice'],
    [{ agentToolIds: ['a1'] }, 'an agent cannot call itself as a tool'],
  ])('refuses %j', (override, problem) => {
    const problems = agentSpecProblems({ ...spec(), ...override }, { toolNames });
    expect(problems.join('\n')).toContain(problem);
  });

  it('builds each called spec as an AgentTool, one agent however many call it', () => {
    const called = spec({ id: 'c', name: 'researcher', description: 'Finds things.' });
    const sub = spec({ id: 's', name: 'writer', agentToolIds: ['c'] });
    const root = spec({ id: 'r', name: 'boss', subAgentIds: ['s'], agentToolIds: ['c'] });
    const agent = build(root, sub, called);
    const tool = agent.tools.find((t) => t.name === 'researcher') as AgentTool;
    expect(tool).toBeInstanceOf(AgentTool);
    expect(tool.description).toBe('Finds things.');
    const subTool = (agent.subAgents[0] as LlmAgent).tools[0] as AgentTool;
    expect(subTool.agent).toBe(tool.agent);
    expect(tool.agent.parentAgent).toBeUndefined();
    // The runner takes the tree as it is (one agent called by two).
    expect(
      () => new Runner({ appName: 'a', agent, sessionService: new InMemorySessionService() }),
    ).not.toThrow();
    expect(specTree(root, lookupOf(root, sub, called)).map((s) => s.name)).toEqual([
      'boss',
      'writer',
      'researcher',
    ]);
  });

  it('refuses an unknown agent, circles through tools, and an agent both a sub-agent and a tool', () => {
    const gone = spec({ id: 'r', name: 'boss', agentToolIds: ['gone'] });
    expect(specTreeProblems(gone, lookupOf(gone))).toEqual([
      'boss calls an agent that no longer exists (gone)',
    ]);

    const a = spec({ id: 'a', name: 'a', agentToolIds: ['b'] });
    const b = spec({ id: 'b', name: 'b', subAgentIds: ['c'] });
    const c = spec({ id: 'c', name: 'c', agentToolIds: ['a'] });
    expect(specTreeProblems(a, lookupOf(a, b, c))).toEqual([
      'Agents call each other in a circle (a → b → c → a): an agent cannot call itself',
    ]);
    const subOfTool = spec({ id: 'b', name: 'b', subAgentIds: ['a'] });
    expect(specTreeProblems(a, lookupOf(a, subOfTool)).join('\n')).toContain('in a circle');
    expect(() => build(a, b, c)).toThrow(/Agent a: Agents call each other in a circle/);

    const both = spec({ id: 'x', name: 'x' });
    const root = spec({ id: 'r', name: 'boss', subAgentIds: ['x'], agentToolIds: ['x'] });
    expect(specTreeProblems(root, lookupOf(root, both))).toEqual([
      'x is a sub-agent of boss and a tool of boss: an agent called as a tool cannot also be a sub-agent',
    ]);
  });

  it('refuses two agents of one name across the tree and the agents it calls', () => {
    const called = spec({ id: 'c', name: 'twin' });
    const sub = spec({ id: 's', name: 'twin' });
    const root = spec({ id: 'r', name: 'boss', subAgentIds: ['s'], agentToolIds: ['c'] });
    expect(specTreeProblems(root, lookupOf(root, sub, called))).toEqual([
      "Two agents in boss's tree are called twin: rename one",
    ]);
  });

  it('travels in agent files, and a file naming an agent it lacks is refused', () => {
    const called = spec({ id: 'c', name: 'researcher' });
    const root = spec({ id: 'r', name: 'boss', agentToolIds: ['c'] });
    const provider = {
      id: 'p1',
      kind: 'openai-compatible' as const,
      name: 'Local',
      baseUrl: 'http://127.0.0.1:1/v1',
      defaultModel: 'm',
    };
    const json = toAgentFile(root, lookupOf(root, called), () => provider);
    const file = parseAgentFile(json, { toolNames });
    expect(file.agents.map((s) => [s.name, s.agentToolIds])).toEqual([
      ['boss', ['c']],
      ['researcher', undefined],
    ]);
    const broken = JSON.parse(json);
    broken.agents = broken.agents.slice(0, 1);
    expect(() => parseAgentFile(JSON.stringify(broken), { toolNames })).toThrow(
      /boss calls an agent c that is not in the file/,
    );
  });
});
