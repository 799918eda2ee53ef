// Arithmetic for the calculator tools (the built-in one and the flow demos'): safe, no `eval`.

/** + - * / and parentheses over decimal numbers, by recursive descent (never `eval`). */
export function evaluateArithmetic(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[-+*/()]/g) ?? [];
  if (tokens.join('') !== expression.replace(/\s+/g, '')) {
    throw new Error(`Not arithmetic: ${expression}`);
  }
  let at = 0;
  const peek = () => tokens[at];
  const primary = (): number => {
    const token = tokens[at++];
    if (token === '(') {
      const value = sum();
      if (tokens[at++] !== ')') throw new Error(`Missing ) in ${expression}`);
      return value;
    }
    if (token === '-') return -primary();
    const value = Number(token);
    if (token === undefined || Number.isNaN(value))
      throw new Error(`Not arithmetic: ${expression}`);
    return value;
  };
  const product = (): number => {
    let value = primary();
    while (peek() === '*' || peek() === '/')
      value = tokens[at++] === '*' ? value * primary() : value / primary();
    return value;
  };
  const sum = (): number => {
    let value = product();
    while (peek() === '+' || peek() === '-')
      value = tokens[at++] === '+' ? value + product() : value - product();
    return value;
  };
  const value = sum();
  if (at !== tokens.length) throw new Error(`Not arithmetic: ${expression}`);
  return value;
}
