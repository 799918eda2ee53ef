// Trimming a set of characters off the ends of a text in linear time. A regular expression such
// as /[.!?]+$/ retries from every character of a long run that does not reach the end, which is
// quadratic on text a user or a model wrote (40,000 dots: seconds).

/** `text` without the characters of `set` at its end. */
export function trimEnd(text: string, set: string): string {
  let end = text.length;
  while (end > 0 && set.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** `text` without the characters of `set` at its start. */
export function trimStart(text: string, set: string): string {
  let start = 0;
  while (start < text.length && set.includes(text[start]!)) start++;
  return text.slice(start);
}
