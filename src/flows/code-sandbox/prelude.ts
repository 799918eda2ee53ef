// What runs inside QuickJS before a Custom Function's code: the globals and the console, and the
// one function the engine calls afterwards to read what the code returned or threw. Its text is
// JavaScript for the sandbox, never evaluated outside it.
//
// The prelude keeps its own references to JSON, String, Object.defineProperty and RegExp's exec,
// taken before the code runs, so code that replaces them can spoil its own output and no more:
// `finish` always returns a string, which the engine reads with checks of its own.

/** The most characters of a console line, an error's message or a name that are kept. */
const MAX_TEXT_CHARS = 2_000;

/** The file name errors of the code name (`code.js:3`), which gives their line. */
export const CODE_FILE = 'code.js';

/**
 * The code as the body of an async function, called at once: `await` and `return` work, and its
 * first line is line 1 of the file, so the lines errors name are the code's own.
 */
export function wrapCode(code: string): string {
  return `(async () => {${code}\n})()`;
}

/**
 * `(globalsText, hostLog) => finish`: defines the globals (`{ values, unset }` as JSON text) and
 * `console`, whose methods call `hostLog(level, text)`; `finish(false, value)` answers `u` (the
 * code returned undefined), `j` + JSON text, or `x` + what the value is instead of JSON;
 * `finish(true, error)` answers `{ name?, message, line?, syntaxOfCode? }` as JSON text.
 */
export const PRELUDE = `(function (globalsText, hostLog) {
  'use strict';
  const { parse, stringify } = JSON;
  const { defineProperty, keys } = Object;
  const StringOf = String;
  const apply = Reflect.apply;
  const exec = RegExp.prototype.exec;
  const slice = String.prototype.slice;
  const isArray = Array.isArray;
  const LINE = /code\\.js:(\\d+)/;
  const MAX = ${MAX_TEXT_CHARS};

  const cut = (text) => (text.length > MAX ? apply(slice, text, [0, MAX]) + '…' : text);
  const safely = (read, fallback) => {
    try {
      return read();
    } catch {
      return fallback;
    }
  };
  const show = (value) => {
    try {
      if (typeof value === 'string') return value;
      if (value instanceof Error) return StringOf(value.name) + ': ' + StringOf(value.message);
      const text = typeof value === 'object' && value !== null ? stringify(value) : undefined;
      return text === undefined ? StringOf(value) : text;
    } catch {
      return safely(() => StringOf(value), '[a value that cannot be shown]');
    }
  };
  const print = (level) => function (...values) {
    let text = '';
    for (let i = 0; i < values.length && text.length <= MAX; i++)
      text += (i === 0 ? '' : ' ') + cut(show(values[i]));
    hostLog(level, cut(text));
  };
  const define = (name, value) =>
    defineProperty(globalThis, name, { value, writable: true, configurable: true });

  define('console', {
    log: print('log'),
    info: print('info'),
    debug: print('debug'),
    warn: print('warn'),
    error: print('error'),
  });
  const given = parse(globalsText);
  for (const name of keys(given.values)) define(name, given.values[name]);
  for (const name of given.unset) define(name, undefined);

  const encode = (value) => {
    if (value === undefined) return 'u';
    if (typeof value === 'function') return 'xa function';
    if (typeof value === 'symbol') return 'xa symbol';
    if (typeof value === 'bigint') return 'xa BigInt';
    let text;
    try {
      text = stringify(value);
    } catch (error) {
      const message = safely(() => StringOf(error.message), '');
      if (apply(exec, /circular/i, [message])) return 'xan object that contains itself';
      if (apply(exec, /bigint/i, [message])) return 'xa BigInt inside it';
      return 'x' + cut(safely(() => StringOf(error.name), 'Error') + ': ' + message);
    }
    return text === undefined ? 'x' + typeof value : 'j' + text;
  };
  const describe = (error) => {
    if (error === null || typeof error !== 'object' || isArray(error))
      return stringify({ message: cut(show(error)) });
    const name = safely(() => error.name, undefined);
    const message = safely(() => error.message, undefined);
    if (typeof message !== 'string' && typeof name !== 'string')
      return stringify({ message: cut(show(error)) });
    const ownFile = safely(() => error.fileName === '${CODE_FILE}', false);
    let line = ownFile ? safely(() => error.lineNumber, undefined) : undefined;
    if (typeof line !== 'number') {
      const found = safely(() => apply(exec, LINE, [StringOf(error.stack)]), null);
      line = found ? Number(found[1]) : undefined;
    }
    return stringify({
      name: typeof name === 'string' ? cut(name) : undefined,
      message: cut(typeof message === 'string' ? message : ''),
      line,
      syntaxOfCode: ownFile || undefined,
    });
  };
  return (failed, value) => {
    try {
      return failed ? describe(value) : encode(value);
    } catch {
      if (failed) return '{"message":"an error that could not be read"}';
      return 'xa value that could not be read';
    }
  };
})`;
