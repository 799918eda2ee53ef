// The compactors' options, checked when they are made: a wrong one says so at once, not at the
// first model call.

import { InvalidRequestError } from '../core/errors.ts';

/** `value`, when it is a whole number of at least 0. */
export function checkCount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new InvalidRequestError(
      `${name} must be a whole number of at least 0, not ${String(value)}`,
    );
  }
  return value;
}
