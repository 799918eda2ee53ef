// The Condition Agent: a model's free-text answer matched to one of the node's scenarios.

import { describe, expect, it } from 'vitest';
import { matchScenario } from '../../../src/flows/scenarios.ts';

const scenarios = ['resolved', 'unresolved', 'needs a human'];

describe('matchScenario', () => {
  it.each([
    ['resolved', 'resolved'],
    ['  Unresolved  ', 'unresolved'],
    ['"resolved".', 'resolved'],
    ["'Needs a human'!", 'needs a human'],
    ['**Resolved**', 'resolved'],
    ['Resolved: the customer got the refund', 'resolved'],
    ['unresolved, the invoice is still missing', 'unresolved'],
    ['I think it is unresolved', 'unresolved'],
    ['The issue is resolved now', 'resolved'],
    ['This one needs a human to look at it', 'needs a human'],
    ['{"output": "unresolved"}', 'unresolved'],
    ['```json\n{"output": "Resolved"}\n```', 'resolved'],
    ['{"output": "it is resolved", "reason": "refund"}', 'resolved'],
    ['{"answer": "resolved"}', 'resolved'],
    ['No idea', 'needs a human'],
    ['', 'needs a human'],
  ])('%j → %s', (reply, expected) => {
    expect(matchScenario(reply, scenarios)).toBe(expected);
  });

  it('returns the scenario as the flow spells it', () => {
    expect(matchScenario('billing question', ['Billing Question', 'Other'])).toBe(
      'Billing Question',
    );
  });

  it('prefers the longest scenario the answer starts with', () => {
    expect(matchScenario('tech support please', ['tech', 'tech support', 'other'])).toBe(
      'tech support',
    );
  });
});
