// The names the chat shows for the authors of events: a built agent's given name for its
// identifier, a flow's node labels for their ids; any other author as it is.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { authorNames } from '../../../src/ui/workbench/open-session-model.ts';
import type { AgentInfo } from '../../../workers/protocol.ts';
import { appRuntime } from '../../support/app-runtime.ts';

describe('author names', () => {
  it('names a flow’s nodes by their labels, and leaves the rest as they are', () => {
    const flow = {
      name: 'Triage',
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'classifier', type: 'llm', label: 'Classifier' },
        { id: 'billing', type: 'agent', label: '  ' },
        { id: 'tech', type: 'agent', label: 'tech' },
      ],
      edges: [],
    };
    const names = authorNames({
      id: 'flow:x',
      name: 'Triage',
      kind: 'flow',
      flow,
    } as unknown as AgentInfo);
    expect([...names]).toEqual([['classifier', 'Classifier']]);
    expect(authorNames(undefined).size).toBe(0);
  });

  it('gives built agents their given names, sub-agents included', async () => {
    const runtime = appRuntime();
    const provider = await runtime.providers.save({
      kind: 'openai-compatible',
      name: 'P',
      baseUrl: 'http://127.0.0.1:9/v1',
      defaultModel: 'm',
    });
    const spec = {
      description: '',
      providerId: provider.id,
      model: '',
      instruction: 'Help.',
      tools: [],
      resumable: true,
    };
    const helper = (
      await runtime.agentSpecs.save({
        ...spec,
        name: 'fact_checker',
        displayName: 'Fact checker',
        subAgentIds: [],
      })
    ).saved!;
    await runtime.agentSpecs.save({
      ...spec,
      name: 'trip_planner',
      displayName: 'Trip planner',
      subAgentIds: [helper.id],
    });
    const planner = (await runtime.agents()).find((agent) => agent.name === 'Trip planner')!;
    expect(Object.fromEntries(authorNames(planner))).toMatchObject({
      trip_planner: 'Trip planner',
      fact_checker: 'Fact checker',
    });
  });
});
