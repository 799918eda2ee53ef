// Agents as the agent builder saves them: what a valid spec is, building the LlmAgent tree from
// specs (cycles and the like refused), and the agent file (export never holds a key; import
// checks everything and says what is wrong).

import { describe, expect, it } from 'vitest';
import { AGENT_FILE_FORMAT, parseAgentFile, toAgentFile } from '../../../src/agents/agent-file.ts';
import {
  agentSpecProblems,
  buildSpecAgent,
  specTreeProblems,
  type AgentSpec,
} from '../../../src/agents/agent-spec.ts';
import { LlmAgent, ScriptedModel } from '../../../src/index.ts';
import type { ProviderSpec } from '../../../src/models/provider-spec.ts';
import { BUILTIN_TOOL_NAMES, builtinTools } from '../../../src/tools/builtin-tools.ts';
import { lookupOf, specOf } from '../../support/agent-specs.ts';

const toolNames = BUILTIN_TOOL_NAMES;

const spec = specOf;

const KEY = 'sk-test-0123456789abcdef-SECRET';
const provider: ProviderSpec = {
  id: 'p1',
  kind: 'openai-compatible',
  name: 'Local',
  baseUrl: 'http://127.0.0.1:1/v1',
  apiKey: KEY,
  defaultModel: 'fixture-text',
};

describe('agent specs', () => {
  it('accepts a valid spec', () => {
    expect(agentSpecProblems(spec(), { toolNames })).toEqual([]);
  });

  it.each([
    [{ name: '' }, 'name is empty'],
    [{ name: '2fast' }, 'must be an identifier'],
    [{ name: 'user' }, 'cannot be "user"'],
    [{ providerId: '' }, 'providerId is empty'],
    [{ tools: ['calculator', 'rm_rf'] }, 'there is no built-in tool rm_rf'],
    [{ tools: ['calculator', 'calculator'] }, 'tools lists calculator twice'],
    [{ subAgentIds: ['a1'] }, 'cannot be its own sub-agent'],
    [{ resumable: 'yes' }, 'resumable must be true or false'],
    [{ instruction: 'x'.repeat(50_001) }, 'instruction is longer than 50000'],
  ])('refuses %j: %s', (overrides, problem) => {
    const problems = agentSpecProblems(spec(overrides as Partial<AgentSpec>), { toolNames });
    expect(problems.join('\n')).toContain(problem);
  });

  it('refuses what is not an object', () => {
    expect(agentSpecProblems([], { toolNames })).toEqual(['An agent must be a JSON object']);
  });

  it('builds the tree of LlmAgents with their tools, sub-agents and models', () => {
    const child = spec({ id: 'a2', name: 'researcher', tools: ['current_time'] });
    const root = spec({ subAgentIds: ['a2'], tools: ['get_state', 'set_state'] });
    const models: string[] = [];
    const agent = buildSpecAgent(root, {
      lookup: lookupOf(root, child),
      model: (s) => (models.push(s.name), new ScriptedModel(['hi'], { model: s.model })),
      tools: builtinTools,
    });
    expect(agent).toBeInstanceOf(LlmAgent);
    expect(agent.tools.map((t) => t.name)).toEqual(['get_state', 'set_state']);
    expect(agent.instruction).toBe('Be brief.');
    const sub = agent.subAgents[0] as LlmAgent;
    expect(sub.name).toBe('researcher');
    expect(sub.tools.map((t) => t.name)).toEqual(['current_time']);
    expect(models).toEqual(['helper', 'researcher']);
  });

  it('refuses a cycle, naming it, before building anything', () => {
    const a = spec({ id: 'a', name: 'a', subAgentIds: ['b'] });
    const b = spec({ id: 'b', name: 'b', subAgentIds: ['c'] });
    const c = spec({ id: 'c', name: 'c', subAgentIds: ['a'] });
    const lookup = lookupOf(a, b, c);
    expect(specTreeProblems(a, lookup)).toEqual([
      'Sub-agents go round in a circle (a → b → c → a): an agent cannot be below itself',
    ]);
    let built = 0;
    expect(() =>
      buildSpecAgent(a, { lookup, model: () => (built++, new ScriptedModel([])), tools: () => [] }),
    ).toThrow(/Agent a: Sub-agents go round in a circle/);
    expect(built).toBe(0);
  });

  it('refuses one agent twice in a tree, a missing sub-agent and two agents of one name', () => {
    const shared = spec({ id: 's', name: 'shared' });
    const left = spec({ id: 'l', name: 'left', subAgentIds: ['s'] });
    const right = spec({ id: 'r', name: 'right', subAgentIds: ['s', 'gone'] });
    const twin = spec({ id: 't', name: 'left' });
    const root = spec({ id: 'root', name: 'root', subAgentIds: ['l', 'r', 't'] });
    const problems = specTreeProblems(root, lookupOf(root, left, right, shared, twin));
    expect(problems).toEqual([
      'shared is a sub-agent of both left and right: an agent can have only one parent in a tree',
      'right has a sub-agent that no longer exists (gone)',
      "Two agents in root's tree are called left: rename one",
    ]);
  });
});

describe('agent files', () => {
  const child = spec({ id: 'a2', name: 'researcher', subAgentIds: [] });
  const root = spec({ subAgentIds: ['a2'] });
  const lookup = lookupOf(root, child);
  const file = () => toAgentFile(root, lookup, (id) => (id === 'p1' ? provider : undefined));

  it('exports the agent with its sub-agents and providers, never the key', () => {
    const text = file();
    expect(text).not.toContain(KEY);
    expect(text).not.toMatch(/apiKey/);
    expect(JSON.parse(text)).toEqual({
      format: AGENT_FILE_FORMAT,
      version: 1,
      agent: 'a1',
      agents: [root, child],
      providers: [
        {
          id: 'p1',
          kind: 'openai-compatible',
          name: 'Local',
          baseUrl: 'http://127.0.0.1:1/v1',
          defaultModel: 'fixture-text',
        },
      ],
    });
  });

  it('reads back what it exported', () => {
    const parsed = parseAgentFile(file(), { toolNames });
    expect(parsed.agents).toEqual([root, child]);
    expect(parsed.agent).toBe('a1');
  });

  it('drops a key someone put in a file', () => {
    const json = JSON.parse(file());
    json.providers[0].apiKey = KEY;
    const parsed = parseAgentFile(JSON.stringify(json), { toolNames });
    expect(JSON.stringify(parsed)).not.toContain(KEY);
  });

  const broken: [string, (json: any) => unknown, RegExp][] = [
    ['not JSON', () => '{', /it is not JSON/],
    ['a session file', () => ({ events: [] }), /"format" must be "trellis-agent"/],
    ['a newer version', (j) => ({ ...j, version: 2 }), /version 2 is not one/],
    ['no agents', (j) => ({ ...j, agents: [] }), /"agents" is not a list/],
    [
      'a bad agent',
      (j) => ({ ...j, agents: [{ ...j.agents[0], tools: ['shell'] }, j.agents[1]] }),
      /agents\[0\] \(helper\): tools: there is no built-in tool shell/,
    ],
    [
      'a sub-agent that is not in it',
      (j) => ({ ...j, agents: [j.agents[0]] }),
      /helper has a sub-agent a2 that is not in the file/,
    ],
    [
      'a provider that is not in it',
      (j) => ({ ...j, providers: [] }),
      /uses a provider \(p1\) that is not in the file/,
    ],
    [
      'a bad provider URL',
      (j) => ({ ...j, providers: [{ ...j.providers[0], baseUrl: 'ftp://x' }] }),
      /providers\[0\]: The base URL must start with http/,
    ],
    [
      'a cycle',
      (j) => ({ ...j, agents: [j.agents[0], { ...j.agents[1], subAgentIds: ['a1'] }] }),
      /go round in a circle \(helper → researcher → helper\)/,
    ],
  ];

  it.each(broken)('refuses %s with a clear message', (_, change, message) => {
    const changed = change(JSON.parse(file()));
    const text = typeof changed === 'string' ? changed : JSON.stringify(changed);
    let error: Error | undefined;
    try {
      parseAgentFile(text, { toolNames });
    } catch (thrown) {
      error = thrown as Error;
    }
    expect(error?.name).toBe('InvalidRequestError');
    expect(error?.message).toMatch(/^This is not an agent file Trellis can import: /);
    expect(error?.message).toMatch(message);
  });
});
