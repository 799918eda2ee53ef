// The agent builder's Knowledge choice: a saved agent's bases come back into its form, a new
// agent has none, and unticking the last one leaves the form as an agent saved without any (so
// it is not dirty for nothing).

import { describe, expect, it } from 'vitest';
import { draftOf, emptyDraft, sameDraft } from '../../../src/ui/agents/agent-builder-model.ts';
import type { AgentSpecInfo } from '../../../workers/protocol.ts';

const spec = {
  id: 'a1',
  agentId: 'spec:a1',
  name: 'helper',
  description: '',
  providerId: 'p1',
  model: 'm',
  instruction: 'Help.',
  tools: [],
  subAgentIds: [],
  resumable: true,
  updatedAt: 1,
} as unknown as AgentSpecInfo;

describe('the Knowledge choice of the agent builder', () => {
  it('brings a saved agent’s bases into its form, as a copy', () => {
    const saved = { ...spec, knowledgeBaseIds: ['kb1', 'kb2'] };
    const draft = draftOf(saved);
    expect(draft.knowledgeBaseIds).toEqual(['kb1', 'kb2']);
    draft.knowledgeBaseIds!.push('kb3');
    expect(saved.knowledgeBaseIds).toEqual(['kb1', 'kb2']);
  });

  it('leaves the field out when there are none, new or saved', () => {
    expect('knowledgeBaseIds' in emptyDraft([])).toBe(false);
    expect('knowledgeBaseIds' in draftOf({ ...spec, knowledgeBaseIds: [] })).toBe(false);
  });

  it('is unchanged once the last base is unticked again', () => {
    const saved = draftOf(spec);
    const ticked = { ...saved, knowledgeBaseIds: ['kb1'] };
    expect(sameDraft(ticked, saved)).toBe(false);
    // KnowledgeChoices hands `undefined` for none.
    expect(sameDraft({ ...ticked, knowledgeBaseIds: undefined }, saved)).toBe(true);
  });
});
