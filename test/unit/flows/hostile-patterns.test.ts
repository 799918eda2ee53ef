// Patterns a flow or a file supplies cannot freeze the runtime (issue 19): a Condition's regex
// runs on RE2 (linear time), a pattern RE2 cannot run is a validation problem on its node, and the
// template and placeholder scanners stay linear on long runs of spaces or braces. Each test here
// would hang without its fix (backtracking is exponential, cubic or quadratic there).

import { describe, expect, it } from 'vitest';
import { renderInstruction } from '../../../src/agents/instructions.ts';
import { evaluateRule } from '../../../src/flows/conditions.ts';
import { renderTemplate, templateRefs } from '../../../src/flows/templates.ts';
import { compileFlow, validateFlow, type Event, type Flow } from '../../../src/index.ts';
import type { InvocationContext } from '../../../src/runner/invocation-context.ts';
import { nodeModel, nodePath, replies } from '../../support/flows.ts';
import { collect } from '../../support/helpers.ts';
import { openRunnerSession, userId } from '../../support/runner-session.ts';
import { serviceKinds } from '../../support/service-kinds.ts';

/** start → route: the message matches `pattern` → yes, else → no. */
function routeBy(pattern: string): Flow {
  return {
    name: 'router',
    nodes: [
      { id: 'start', type: 'start' },
      {
        id: 'route',
        type: 'condition',
        rules: [{ variable: '{{question}}', operation: 'regex', value: pattern, output: 'match' }],
      },
      { id: 'yes', type: 'agent', instruction: 'Yes' },
      { id: 'no', type: 'agent', instruction: 'No' },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { from: 'start', to: 'route' },
      { from: 'route', to: 'yes', when: 'match' },
      { from: 'route', to: 'no', when: 'else' },
      { from: 'yes', to: 'end' },
      { from: 'no', to: 'end' },
    ],
  };
}

const answers = () => nodeModel({ yes: () => 'matched', no: () => 'no match' });

// 41 characters: JavaScript's backtracking takes about 2^40 steps to fail `^(a+)+$` on it.
const PATHOLOGICAL = `${'a'.repeat(40)}!`;

describe.each(serviceKinds)('a regex Condition on a pathological input ($name)', (kind) => {
  it('finishes a run, and a resumed run after a reload, on RE2', async () => {
    let services = kind.open();
    const flow = routeBy('^(a+)+$');
    const session = await openRunnerSession(services, compileFlow(flow, { model: answers() }), {
      resumable: true,
    });
    // The tester's message, then a long one.
    expect(replies(await session.run(PATHOLOGICAL))).toEqual(['no: no match']);
    expect(replies(await session.run(`${'a'.repeat(100_000)}!`))).toEqual(['no: no match']);
    expect(replies(await session.run('a'.repeat(1000)))).toEqual(['yes: matched']);

    // Cut off just after the route's checkpoint, then resumed by new services (a reload).
    const cut: Event[] = [];
    for await (const event of session.stream(PATHOLOGICAL)) {
      cut.push(event);
      if (nodePath(cut).at(-1) === 'route') break;
    }
    services = await services.restart();
    const again = await openRunnerSession(services, compileFlow(flow, { model: answers() }), {
      resumable: true,
    });
    const resumed = await collect(
      again.runner.runAsync({
        userId,
        sessionId: session.sessionId,
        invocationId: cut[0]!.invocationId,
      }),
    );
    expect(replies(resumed)).toEqual(['no: no match']);
    await services.close();
  });
});

describe('regex rules', () => {
  it.each([
    ['b', 'abc', true], // unanchored, as RegExp.test
    ['^b', 'abc', false],
    ['c$', 'abc', true],
    ['(?i)ABC', 'abc', true],
    ['B', 'abc', false], // case-sensitive
    ['^.$', '😀', true], // a character, not a UTF-16 unit
    ['\\d{3}-\\d{4}', 'call 555-1234', true],
    ['(a)\\1', 'aa', false], // RE2 cannot run it: false at run time, as any bad pattern
  ])('%s on %j → %s', (pattern, text, expected) => {
    const rule = { variable: '{{question}}', operation: 'regex', value: pattern, output: 'x' };
    expect(evaluateRule(rule, { state: {}, question: text })).toBe(expected);
  });

  it.each([
    ['(a)\\1', /invalid escape sequence/],
    ['(?=a)b', /invalid or unsupported Perl syntax/],
    ['(?<=a)b', /invalid named capture|unsupported/],
    ['([', /missing closing/],
  ])('reports %s on its node as a pattern RE2 cannot run, saying why', (pattern, why) => {
    const problems = validateFlow(routeBy(pattern));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.nodeId).toBe('route');
    expect(problems[0]!.message).toMatch(/^rule 1 has a regex RE2 cannot run/);
    expect(problems[0]!.message).toMatch(why);
    expect(problems[0]!.message).toMatch(/RE2 syntax.*no backreferences.*lookaround/);
  });

  it('accepts RE2 patterns, and leaves a pattern from a template to run time', () => {
    expect(validateFlow(routeBy('^(a+)+$'))).toEqual([]);
    expect(validateFlow(routeBy('{{question}}'))).toEqual([]);
  });
});

describe('template and placeholder scanning', () => {
  const spaces = ' '.repeat(200_000);

  it('stays linear on "{{" followed by a long run of spaces, and trims paths as before', () => {
    expect(templateRefs(`{{${spaces}x`)).toEqual([]);
    expect(templateRefs(`{{${spaces}question${spaces}}}`)).toEqual(['question']);
    expect(templateRefs('{{ state.a }} and {{b}} {{{x}}}')).toEqual(['state.a', 'b', 'x']);
    expect(renderTemplate('{{  question  }}! {{{question}}}', { state: {}, question: 'q' })).toBe(
      'q! {q}',
    );
  });

  it('stays linear on a long run of braces in an instruction, and fills placeholders as before', async () => {
    const ctx = {
      session: { appName: 'a', userId: 'u', id: 's', state: { a: 1, b: 'two' } },
      agent: { name: 'agent' },
    } as unknown as InvocationContext;
    const braces = '{'.repeat(200_000);
    expect(await renderInstruction(braces, ctx)).toBe(braces);
    expect(await renderInstruction('{a} {{b}} {c?} {"json": 1} {{{a}}}', ctx)).toBe(
      '1 two  {"json": 1} 1',
    );
  });
});
