// Flowise's Condition node: every operator, true and false, and the first matching rule wins.

import { describe, expect, it } from 'vitest';
import { CONDITION_OPERATIONS, type ConditionRule } from '../../../src/flows/flow.ts';
import { chooseOutput, evaluateRule, parseOperation } from '../../../src/flows/conditions.ts';
import type { TemplateScope } from '../../../src/flows/templates.ts';

const scope: TemplateScope = {
  state: {
    category: 'billing',
    tags: ['vip', 'eu'],
    count: 5,
    countText: '5',
    blank: '   ',
    none: null,
    noItems: [],
    noFields: {},
    limit: '5',
  },
  output: { answer: 'Refund issued' },
  question: 'Where is my invoice?',
};

describe('parseOperation', () => {
  it('accepts every camelCase id', () => {
    for (const op of CONDITION_OPERATIONS) expect(parseOperation(op)).toBe(op);
  });

  it.each([
    ['Contains', 'contains'],
    ['not contains', 'notContains'],
    ['Not_Contains', 'notContains'],
    ['Start With', 'startsWith'],
    ['starts with', 'startsWith'],
    ['ends with', 'endsWith'],
    ['End With', 'endsWith'],
    ['IS', 'is'],
    ['is not', 'isNot'],
    ['is empty', 'isEmpty'],
    ['not empty', 'isNotEmpty'],
    ['is not empty', 'isNotEmpty'],
    ['greater than', 'greaterThan'],
    ['less-than', 'lessThan'],
    ['equal to', 'equalTo'],
    ['not equal to', 'notEqualTo'],
    ['greater or equal', 'greaterOrEqual'],
    ['Greater Than or Equal To', 'greaterOrEqual'],
    ['less or equal', 'lessOrEqual'],
    ['less than or equal to', 'lessOrEqual'],
    ['regex', 'regex'],
    ['matches regex', 'regex'],
  ])('%j → %s', (words, op) => {
    expect(parseOperation(words)).toBe(op);
  });

  it.each(['', 'between', 'contain', '>'])('rejects %j', (words) => {
    expect(parseOperation(words)).toBeUndefined();
  });
});

describe('evaluateRule', () => {
  const cases: [string, string, ConditionRule['value'] | undefined, boolean][] = [
    // String operations compare text, case-sensitively.
    ['{{state.category}}', 'contains', 'bill', true],
    ['{{state.category}}', 'contains', 'Bill', false],
    ['{{state.tags}}', 'contains', 'vip', true],
    ['{{state.tags}}', 'contains', 'vi', false],
    ['{{state.category}}', 'notContains', 'tech', true],
    ['{{state.category}}', 'notContains', 'ill', false],
    ['{{state.tags}}', 'notContains', 'us', true],
    ['{{state.tags}}', 'notContains', 'eu', false],
    ['{{output.answer}}', 'startsWith', 'Refund', true],
    ['{{output.answer}}', 'startsWith', 'refund', false],
    ['{{output.answer}}', 'endsWith', 'issued', true],
    ['{{output.answer}}', 'endsWith', 'Refund', false],
    ['{{state.category}}', 'is', 'billing', true],
    ['{{state.category}}', 'is', 'Billing', false],
    ['{{state.count}}', 'is', 5, true],
    ['{{state.category}}', 'isNot', 'tech', true],
    ['{{state.category}}', 'isNot', 'billing', false],
    ['{{state.category}}', 'is', '{{state.category}}', true],
    ['{{question}}', 'contains', 'invoice', true],
    // Emptiness.
    ['{{state.missing}}', 'isEmpty', undefined, true],
    ['{{state.none}}', 'isEmpty', undefined, true],
    ['{{state.blank}}', 'isEmpty', undefined, true],
    ['{{state.noItems}}', 'isEmpty', undefined, true],
    ['{{state.noFields}}', 'isEmpty', undefined, true],
    ['{{state.category}}', 'isEmpty', undefined, false],
    ['{{state.count}}', 'isEmpty', undefined, false],
    ['{{state.tags}}', 'isNotEmpty', undefined, true],
    ['{{state.blank}}', 'isNotEmpty', undefined, false],
    // Numbers: both sides through Number(); not a number is never true.
    ['{{state.count}}', 'greaterThan', 4, true],
    ['{{state.count}}', 'greaterThan', '5', false],
    ['{{state.countText}}', 'lessThan', '10', true],
    ['{{state.count}}', 'lessThan', 5, false],
    ['{{state.count}}', 'equalTo', '5.0', true],
    ['{{state.count}}', 'equalTo', '{{state.limit}}', true],
    ['{{state.count}}', 'equalTo', 6, false],
    ['{{state.count}}', 'notEqualTo', 6, true],
    ['{{state.count}}', 'notEqualTo', 5, false],
    ['{{state.category}}', 'notEqualTo', 5, false],
    ['{{state.missing}}', 'equalTo', 0, false],
    ['{{state.blank}}', 'equalTo', 0, false],
    ['{{state.count}}', 'greaterOrEqual', 5, true],
    ['{{state.count}}', 'greaterOrEqual', 6, false],
    ['{{state.count}}', 'lessOrEqual', 5, true],
    ['{{state.count}}', 'lessOrEqual', 4, false],
    ['{{state.category}}', 'greaterThan', 1, false],
    // Regex.
    ['{{question}}', 'regex', 'invoice\\?$', true],
    ['{{question}}', 'regex', '^invoice', false],
    ['{{question}}', 'regex', '([', false],
    // Word forms and unknown operations.
    ['{{state.category}}', 'Not Contains', 'tech', true],
    ['{{state.category}}', 'between', 'a', false],
  ];

  it.each(cases)('%s %s %j → %s', (variable, operation, value, expected) => {
    const rule: ConditionRule = { variable, operation, output: 'yes' };
    if (value !== undefined) rule.value = value;
    expect(evaluateRule(rule, scope)).toBe(expected);
  });

  it('covers every operation with a true and a false case', () => {
    for (const op of CONDITION_OPERATIONS) {
      const results = cases.filter(([, operation]) => operation === op).map(([, , , r]) => r);
      expect(results, op).toContain(true);
      expect(results, op).toContain(false);
    }
  });
});

describe('chooseOutput', () => {
  const rules: ConditionRule[] = [
    { variable: '{{state.category}}', operation: 'is', value: 'tech', output: 'tech' },
    { variable: '{{state.count}}', operation: 'greaterThan', value: 1, output: 'many' },
    { variable: '{{state.category}}', operation: 'is', value: 'billing', output: 'billing' },
  ];

  it('takes the output of the first rule that holds', () => {
    expect(chooseOutput(rules, scope)).toBe('many');
  });

  it("takes 'else' when no rule holds", () => {
    expect(chooseOutput(rules, { state: { category: 'sales', count: 0 } })).toBe('else');
    expect(chooseOutput([], scope)).toBe('else');
  });
});
