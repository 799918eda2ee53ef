// validateFlow: a valid flow has no problems; each kind of mistake is reported on its node, and
// all of them at once.

import { describe, expect, it } from 'vitest';
import { FlowValidationError, isTrellisError } from '../../../src/core/errors.ts';
import { assertValidFlow, validateFlow } from '../../../src/flows/validate.ts';

/** The example of the spec. Tests change a copy of it. */
const SUPPORT = {
  name: 'support',
  state: [
    { key: 'category', operation: 'replace', default: null },
    { key: 'notes', operation: 'append', default: [] },
  ],
  nodes: [
    { id: 'start', type: 'start', moderation: { blocked: ['forbidden phrase'] } },
    {
      id: 'classify',
      type: 'llm',
      instruction: 'Classify the request.',
      output: [{ key: 'category', type: 'enum', enum: ['billing', 'tech'], description: '…' }],
      updateState: { category: '{{output.category}}' },
    },
    {
      id: 'route',
      type: 'condition',
      rules: [
        { variable: '{{state.category}}', operation: 'is', value: 'billing', output: 'billing' },
      ],
    },
    {
      id: 'billing',
      type: 'agent',
      instruction: 'Help with billing.',
      tools: ['lookup_invoice'],
      requireApproval: true,
      history: 'all',
      updateState: { notes: '{{output}}' },
    },
    {
      id: 'check',
      type: 'conditionAgent',
      instruction: 'Is it resolved?',
      scenarios: ['resolved', 'unresolved'],
    },
    {
      id: 'again',
      type: 'loop',
      to: 'billing',
      maxLoops: 3,
      fallback: 'Let me hand this to a person.',
    },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'classify' },
    { from: 'classify', to: 'route' },
    { from: 'route', to: 'billing', when: 'billing' },
    { from: 'route', to: 'end', when: 'else' },
    { from: 'billing', to: 'check' },
    { from: 'check', to: 'end', when: 'resolved' },
    { from: 'check', to: 'again', when: 'unresolved' },
  ],
};

// Loose on purpose: the tests write invalid flows.
type Json = Record<string, any>;
const OPTIONS = { tools: ['lookup_invoice'] };

/** The problems of the support flow after `change` edits a copy of it. */
function problemsAfter(change: (flow: Json) => void, options: object = OPTIONS) {
  const flow = structuredClone(SUPPORT) as Json;
  change(flow);
  return validateFlow(flow, options);
}

const node = (flow: Json, id: string): Json => flow.nodes.find((n: Json) => n.id === id);

describe('validateFlow', () => {
  it('finds nothing wrong with a valid flow', () => {
    expect(validateFlow(SUPPORT, OPTIONS)).toEqual([]);
    expect(validateFlow(SUPPORT)).toEqual([]);
    expect(validateFlow(SUPPORT, { ...OPTIONS, models: [] })).toEqual([]);
  });

  it.each([
    ['a flow that is not an object', 'a flow must be a JSON object', []],
    ['a flow without name, nodes and edges', 'needs a "name"', {}],
    ['nodes that are not an array', 'needs "nodes"', { name: 'x', nodes: {}, edges: [] }],
    ['edges that are not an array', 'needs "edges"', { name: 'x', nodes: [] }],
  ])('stops at %s', (_, fragment, input) => {
    const problems = validateFlow(input);
    expect(problems.map((p) => p.message).join('\n')).toContain(fragment);
    expect(problems.every((p) => p.nodeId === undefined)).toBe(true);
  });

  it.each<[string, (flow: Json) => void, string | undefined, string]>([
    // The flow.
    [
      'maxSteps not a positive integer',
      (f) => (f.maxSteps = 0),
      undefined,
      'maxSteps must be a positive integer',
    ],
    [
      'a state key declared twice',
      (f) => f.state.push({ key: 'notes', operation: 'append' }),
      undefined,
      'state key "notes" is declared more than once',
    ],
    [
      'a state operation other than replace or append',
      (f) => (f.state[0].operation = 'merge'),
      undefined,
      'operation "merge"; use replace or append',
    ],
    [
      'a state entry without a key',
      (f) => f.state.push({ operation: 'replace' }),
      undefined,
      'state entry #3 needs a "key"',
    ],
    // Node ids and types.
    [
      'a repeated node id',
      (f) => f.nodes.push({ id: 'end', type: 'end' }),
      'end',
      'used by more than one node',
    ],
    [
      'a node id that is not an identifier',
      (f) => (node(f, 'end').id = 'the end'),
      'the end',
      'must be an identifier',
    ],
    ['the node id "user"', (f) => (node(f, 'end').id = 'user'), 'user', 'reserved'],
    [
      "a node id equal to the flow's name",
      (f) => (node(f, 'end').id = 'support'),
      'support',
      "the flow's name",
    ],
    [
      'a node without an id',
      (f) => f.nodes.push({ type: 'end' }),
      undefined,
      'node #8 needs an "id"',
    ],
    [
      'an unknown node type',
      (f) => (node(f, 'end').type = 'finish'),
      'end',
      'unknown node type "finish" (known types: start, agent, llm, tool, condition, conditionAgent, loop, end, reply, humanInput, iteration, code, http, toolCall, subflow, retriever)',
    ],
    [
      'no start node',
      (f) => (f.nodes = f.nodes.filter((n: Json) => n.type !== 'start')),
      undefined,
      'no start node',
    ],
    [
      'a second start node',
      (f) => f.nodes.push({ id: 'start2', type: 'start' }),
      'start2',
      'exactly one start node',
    ],
    // Node fields.
    [
      'an agent without an instruction',
      (f) => delete node(f, 'billing').instruction,
      'billing',
      'the instruction is missing',
    ],
    [
      'a conditionAgent instruction that is not a string',
      (f) => (node(f, 'check').instruction = 3),
      'check',
      'the instruction must be a string',
    ],
    [
      'a history that is not a mode',
      (f) => (node(f, 'billing').history = 'some'),
      'billing',
      'history must be one of all, lastMessage, userQuestion, none',
    ],
    [
      'requireApproval that is not a boolean',
      (f) => (node(f, 'billing').requireApproval = 'yes'),
      'billing',
      'requireApproval must be true or false',
    ],
    [
      'an output field of unknown type',
      (f) => (node(f, 'classify').output[0].type = 'date'),
      'classify',
      'output field "category" has type "date"',
    ],
    [
      'an output field declared twice',
      (f) => node(f, 'classify').output.push({ key: 'category', type: 'string' }),
      'classify',
      'output field "category" is declared more than once',
    ],
    [
      'an enum output field without values',
      (f) => (node(f, 'classify').output[0].enum = []),
      'classify',
      'needs "enum": a non-empty array',
    ],
    [
      'moderation without blocked phrases',
      (f) => (node(f, 'start').moderation = { message: 'No.' }),
      'start',
      'moderation needs "blocked"',
    ],
    [
      'maxLoops not a positive integer',
      (f) => (node(f, 'again').maxLoops = 1.5),
      'again',
      'maxLoops must be a positive integer; got 1.5',
    ],
    // Tools and models.
    [
      'a tool node without a list of tools',
      (f) =>
        f.nodes.push({ id: 'run', type: 'tool', tools: 'lookup_invoice' }) &&
        f.edges.push({ from: 'classify', to: 'run' }),
      'run',
      'a tool node needs "tools": an array of tool names',
    ],
    [
      'endWithoutCalls that is not a boolean',
      (f) =>
        f.nodes.push({ id: 'run', type: 'tool', tools: [], endWithoutCalls: 'yes' }) &&
        f.edges.push({ from: 'classify', to: 'run' }),
      'run',
      'endWithoutCalls must be true or false',
    ],
    [
      'an unknown tool',
      (f) => node(f, 'billing').tools.push('refund'),
      'billing',
      'unknown tool "refund" (known tools: lookup_invoice)',
    ],
    [
      'a tool node after neither an llm nor an agent',
      (f) =>
        f.nodes.push({ id: 'run', type: 'tool', tools: ['lookup_invoice'] }) &&
        f.edges.push({ from: 'start', to: 'run' }),
      'run',
      'no edge comes from one',
    ],
    // Conditions.
    [
      'a condition without rules',
      (f) => (node(f, 'route').rules = []),
      'route',
      'a condition needs "rules"',
    ],
    [
      'a condition without an else edge',
      (f) => (f.edges = f.edges.filter((e: Json) => e.when !== 'else')),
      'route',
      'needs an "else" edge',
    ],
    [
      'a rule with an unknown operation',
      (f) => (node(f, 'route').rules[0].operation = 'between'),
      'route',
      'rule 1 has an unknown operation "between"',
    ],
    [
      'a rule without the value its operation needs',
      (f) => delete node(f, 'route').rules[0].value,
      'route',
      'rule 1 (is) needs a "value"',
    ],
    [
      'a rule with an invalid regex',
      (f) => Object.assign(node(f, 'route').rules[0], { operation: 'regex', value: '([' }),
      'route',
      'rule 1 has a regex RE2 cannot run, "(["',
    ],
    [
      'an edge out of a condition with an unknown when',
      (f) => (f.edges[2].when = 'tech'),
      'route',
      'edge route → billing has when "tech"',
    ],
    [
      'an edge out of a condition without a when',
      (f) => delete f.edges[2].when,
      'route',
      'edge route → billing needs a "when"',
    ],
    [
      'a rule output without an edge',
      (f) =>
        node(f, 'route').rules.push({
          variable: '{{state.category}}',
          operation: 'is',
          value: 'tech',
          output: 'tech',
        }),
      'route',
      'rule output "tech" has no edge',
    ],
    // Condition agents and other edges.
    [
      'a conditionAgent without scenarios',
      (f) => (node(f, 'check').scenarios = []),
      'check',
      'needs "scenarios"',
    ],
    [
      'an edge out of a conditionAgent whose when is not a scenario',
      (f) => (f.edges[6].when = 'open'),
      'check',
      'edge check → again has when "open"',
    ],
    [
      'a scenario without an edge',
      (f) => node(f, 'check').scenarios.push('escalate'),
      'check',
      'scenario "escalate" has no edge',
    ],
    [
      'when on an edge out of another node',
      (f) => (f.edges[0].when = 'always'),
      'start',
      'only edges out of a condition or conditionAgent',
    ],
    [
      'an end node with outgoing edges',
      (f) => f.edges.push({ from: 'end', to: 'classify' }),
      'end',
      'an end node has no outgoing edges',
    ],
    [
      'an edge from a missing node',
      (f) => f.edges.push({ from: 'ghost', to: 'end' }),
      'ghost',
      'comes from "ghost", which is not a node',
    ],
    [
      'an edge to a missing node',
      (f) => f.edges.push({ from: 'billing', to: 'ghost' }),
      'billing',
      'goes to "ghost", which is not a node',
    ],
    [
      'an edge without from and to',
      (f) => f.edges.push({ to: 3 }),
      undefined,
      'edge #8 needs "from" and "to"',
    ],
    // Loops and the graph.
    ['a loop without to', (f) => delete node(f, 'again').to, 'again', 'a loop needs "to"'],
    [
      'a loop to a missing node',
      (f) => (node(f, 'again').to = 'ghost'),
      'again',
      'goes back to "ghost", which is not a node',
    ],
    [
      'a cycle without a loop node',
      (f) => f.edges.push({ from: 'billing', to: 'classify' }),
      'classify',
      'the cycle classify → route → billing → classify has no loop node',
    ],
    [
      'a node that cannot be reached',
      (f) => f.nodes.push({ id: 'orphan', type: 'end' }),
      'orphan',
      'no path from the start node',
    ],
    // Templates and Update State.
    [
      'an instruction naming an undeclared state key',
      (f) => (node(f, 'billing').instruction = 'Help {{state.user:name}}'),
      'billing',
      '{{state.user:name}} in the instruction names state key "user:name"',
    ],
    [
      'a template with an unknown root',
      (f) => (node(f, 'billing').instruction = 'Help {{vars.name}}'),
      'billing',
      'unknown root "vars"',
    ],
    [
      'a template naming a node that is not in the flow',
      (f) => (node(f, 'billing').instruction = 'What the router said: {{nodes.router}}'),
      'billing',
      '{{nodes.router}} in the instruction names node "router", which is not in the flow',
    ],
    [
      'a condition variable naming an undeclared state key',
      (f) => (node(f, 'route').rules[0].variable = '{{state.kind}}'),
      'route',
      '{{state.kind}} in the variable of rule 1',
    ],
    [
      'a condition value naming an undeclared state key',
      (f) => (node(f, 'route').rules[0].value = '{{state.kind}}'),
      'route',
      '{{state.kind}} in the value of rule 1',
    ],
    [
      'a loop fallback naming an undeclared state key',
      (f) => (node(f, 'again').fallback = 'Sorry {{state.name}}'),
      'again',
      '{{state.name}} in the fallback',
    ],
    [
      'a moderation message naming an undeclared state key',
      (f) => (node(f, 'start').moderation.message = 'No, {{state.name}}'),
      'start',
      '{{state.name}} in the moderation message',
    ],
    [
      'an updateState value naming an undeclared state key',
      (f) => (node(f, 'billing').updateState.notes = '{{state.summary}}'),
      'billing',
      '{{state.summary}} in updateState.notes',
    ],
    [
      'an llm updateState naming a missing output field',
      (f) => (node(f, 'classify').updateState.category = '{{output.kind}}'),
      'classify',
      'output field "kind", which is not one of the node\'s output fields (category)',
    ],
    [
      'an updateState key not declared in state',
      (f) => (node(f, 'billing').updateState.summary = '{{output}}'),
      'billing',
      'updateState key "summary" is not declared',
    ],
  ])('reports %s', (_, change, nodeId, fragment) => {
    const problems = problemsAfter(change);
    const match = problems.find((p) => p.message.includes(fragment));
    expect(match, JSON.stringify(problems, null, 2)).toBeDefined();
    expect(match!.nodeId).toBe(nodeId);
  });

  it('reports an unknown model only when the known models are given', () => {
    const change = (f: Json) => (node(f, 'classify').model = 'gpt-9');
    expect(problemsAfter(change)).toEqual([]);
    expect(problemsAfter(change, { models: ['gemini-flash'] })).toEqual([
      { nodeId: 'classify', message: 'unknown model "gpt-9" (known models: gemini-flash)' },
    ]);
  });

  it('checks tool names only when the known tools are given', () => {
    expect(problemsAfter((f) => node(f, 'billing').tools.push('refund'), {})).toEqual([]);
  });

  it('accepts cycles through a loop node and word-form operations', () => {
    expect(
      problemsAfter((f) => {
        node(f, 'route').rules[0].operation = 'Not Equal To';
        node(f, 'route').rules[0].value = 3;
      }),
    ).toEqual([]);
  });

  it('reports every problem at once, each on its node', () => {
    const problems = problemsAfter((f) => {
      f.maxSteps = -1;
      delete node(f, 'billing').instruction;
      node(f, 'route').rules[0].operation = 'between';
      node(f, 'again').to = 'ghost';
      f.edges.push({ from: 'end', to: 'start' });
    });
    expect(problems.map((p) => p.nodeId)).toEqual(
      expect.arrayContaining([undefined, 'billing', 'route', 'again', 'end']),
    );
    expect(problems.length).toBeGreaterThanOrEqual(5);
  });

  it('never throws, whatever the input', () => {
    for (const input of [
      null,
      'flow',
      42,
      { name: 1, nodes: [null, 3, { id: 'x' }], edges: [null, 'e'] },
    ]) {
      expect(() => validateFlow(input)).not.toThrow();
    }
  });
});

describe('assertValidFlow', () => {
  it('returns a valid flow as it is', () => {
    expect(assertValidFlow(SUPPORT, OPTIONS)).toBe(SUPPORT);
  });

  it('throws a FlowValidationError listing the problems', () => {
    let thrown: unknown;
    try {
      assertValidFlow({ ...SUPPORT, maxSteps: 0 }, OPTIONS);
    } catch (error) {
      thrown = error;
    }
    expect(isTrellisError(thrown, 'FlowValidationError')).toBe(true);
    expect((thrown as FlowValidationError).problems).toEqual([
      { message: 'maxSteps must be a positive integer; got 0' },
    ]);
  });
});
