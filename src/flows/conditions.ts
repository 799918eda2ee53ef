// Flowise's Condition node: rules compare a variable (a template) with a value; the first rule
// that matches names the edge to follow, and `else` is taken when none does.

import { CONDITION_OPERATIONS, type ConditionOperation, type ConditionRule } from './flow.ts';
import { matchesPattern } from './patterns.ts';
import { evaluateTemplate, templateText, type TemplateScope } from './templates.ts';

/** The edge `when` taken when no rule matches. */
export const ELSE = 'else';

/** Operations that compare with nothing: a rule using them needs no `value`. */
export const VALUELESS_OPERATIONS: readonly ConditionOperation[] = ['isEmpty', 'isNotEmpty'];

// Word forms as Flowise's UI and people write them that do not normalise to a camelCase id
// ("not contains" and "greater or equal" already do).
const WORD_FORMS: Readonly<Record<string, ConditionOperation>> = {
  doesnotcontain: 'notContains',
  startwith: 'startsWith',
  endwith: 'endsWith',
  notempty: 'isNotEmpty',
  greaterthanorequalto: 'greaterOrEqual',
  lessthanorequalto: 'lessOrEqual',
  matchesregex: 'regex',
};

const BY_NORMALISED_NAME: ReadonlyMap<string, ConditionOperation> = new Map([
  ...CONDITION_OPERATIONS.map((op) => [normalise(op), op] as const),
  ...Object.entries(WORD_FORMS),
]);

/** The operation `op` names (`notContains`, `not contains`, `Start With`...), or undefined. */
export function parseOperation(op: string): ConditionOperation | undefined {
  return BY_NORMALISED_NAME.get(normalise(op));
}

/** Whether the rule holds. An unknown operation or a bad regex is false (validateFlow reports both). */
export function evaluateRule(rule: ConditionRule, scope: TemplateScope): boolean {
  const operation = parseOperation(rule.operation);
  if (operation === undefined) return false;
  const variable = evaluateTemplate(rule.variable, scope);
  const value = typeof rule.value === 'string' ? evaluateTemplate(rule.value, scope) : rule.value;
  // Flowise compares strings case-sensitively; a value that is not a string reads as it would
  // inside a template (JSON for objects), not as "[object Object]".
  const text = templateText(variable);
  const expected = templateText(value);
  switch (operation) {
    case 'contains':
      return Array.isArray(variable) ? includesText(variable, expected) : text.includes(expected);
    case 'notContains':
      return Array.isArray(variable) ? !includesText(variable, expected) : !text.includes(expected);
    case 'startsWith':
      return text.startsWith(expected);
    case 'endsWith':
      return text.endsWith(expected);
    case 'is':
      return text === expected;
    case 'isNot':
      return text !== expected;
    case 'isEmpty':
      return isEmpty(variable);
    case 'isNotEmpty':
      return !isEmpty(variable);
    case 'greaterThan':
      return compareNumbers(variable, value, (a, b) => a > b);
    case 'lessThan':
      return compareNumbers(variable, value, (a, b) => a < b);
    case 'equalTo':
      return compareNumbers(variable, value, (a, b) => a === b);
    case 'notEqualTo':
      return compareNumbers(variable, value, (a, b) => a !== b);
    case 'greaterOrEqual':
      return compareNumbers(variable, value, (a, b) => a >= b);
    case 'lessOrEqual':
      return compareNumbers(variable, value, (a, b) => a <= b);
    case 'regex':
      // RE2, never RegExp: a pattern from a flow must not be able to freeze the runtime. A bad
      // pattern from a template value cannot be caught by validateFlow: it just does not match.
      return matchesPattern(expected, text);
    default:
      throw new Error(`Unhandled condition operation: ${String(operation satisfies never)}`);
  }
}

/** The `output` of the first rule that holds, else `'else'`. */
export function chooseOutput(rules: readonly ConditionRule[], scope: TemplateScope): string {
  return rules.find((rule) => evaluateRule(rule, scope))?.output ?? ELSE;
}

function normalise(op: string): string {
  return op.toLowerCase().replace(/[\s_-]+/g, '');
}

function includesText(items: readonly unknown[], expected: string): boolean {
  return items.some((item) => templateText(item) === expected);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

// Both sides must be numbers for any numeric operation to hold, notEqualTo included: "abc" is not
// "not equal to 3", it is not a number at all.
function compareNumbers(a: unknown, b: unknown, holds: (a: number, b: number) => boolean): boolean {
  const x = toNumber(a);
  const y = toNumber(b);
  return !Number.isNaN(x) && !Number.isNaN(y) && holds(x, y);
}

// Number('') and Number(null) are 0, which would make a missing value "equal to 0": only numbers
// and non-blank strings count.
function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return NaN;
}
