// Who sees what across an agent tool's branch (agents/agent-tool-branches.ts): an agent tool's
// run is a world of its own, as ADK's inner session; branches that are not an agent tool's keep
// ADK's rule (an agent sees its own branch and the branches above it; no branch sees all).

import { describe, expect, it } from 'vitest';
import {
  agentToolBranch,
  agentToolScope,
  isOnBranch,
} from '../../../src/agents/agent-tool-branches.ts';

describe('agent tool branches', () => {
  it('names the branch by the caller’s branch, the agent and the call id, cut to safe letters', () => {
    expect(agentToolBranch(undefined, 'helper', 'call-1')).toBe('helper#call-1');
    expect(agentToolBranch('par.a', 'helper', 'adk.x#y z')).toBe('par.a.helper#adk_x_y_z');
    expect(agentToolScope('par.a.helper#c1.inner.b')).toBe('par.a.helper#c1');
    expect(agentToolScope('par.a')).toBe('');
    expect(agentToolScope('wf.node@1')).toBe('');
  });

  it.each([
    // [agent's branch, event's branch, sees it]
    [undefined, undefined, true],
    [undefined, 'par.a', true], // ADK: no branch sees every branch
    ['par.a', undefined, true],
    ['par.a', 'par.b', false],
    ['par.a.x', 'par.a', true],
    ['wf.node@1', undefined, true], // a workflow node's branch is an ordinary one
    // An agent tool's run: the caller never sees it, whatever branch it is on …
    [undefined, 'helper#c1', false],
    ['par.a', 'par.a.helper#c1', false],
    [undefined, 'helper#c1.inner.b', false],
    // … and the agent inside sees only its run: its branch plays the part of "no branch".
    ['helper#c1', undefined, false],
    ['par.a.helper#c1', 'par.a', false],
    ['helper#c1', 'helper#c1', true],
    ['helper#c1', 'helper#c1.inner.b', true],
    ['helper#c1.inner.a', 'helper#c1.inner.b', false],
    ['helper#c1.inner.a', 'helper#c1', true],
    // Two calls of one agent never see each other; nor does a nested agent tool's run.
    ['helper#c1', 'helper#c2', false],
    ['helper#c1', 'helper#c1.deep#c9', false],
    ['helper#c1.deep#c9', 'helper#c1', false],
  ])('an agent on %s sees an event on %s: %s', (branch, eventBranch, sees) => {
    expect(isOnBranch(branch, eventBranch)).toBe(sees);
  });
});
