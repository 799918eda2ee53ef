import { describe, expect, it } from 'vitest';
import { sameOriginScript } from '../../../src/ui/shell/trusted-types.ts';

describe('the default Trusted Types policy', () => {
  const page = 'https://trellis.example/app/';
  it.each([
    ['/assets/runtime-abc.js', true],
    ['https://trellis.example/sw.js', true],
    ['assets/worker.js', true],
    ['blob:https://trellis.example/5f1c', true],
    ['https://evil.example/x.js', false],
    ['//evil.example/x.js', false],
    ['http://trellis.example/sw.js', false],
    ['data:text/javascript,alert(1)', false],
    ['javascript:alert(1)', false],
    ['blob:https://evil.example/5f1c', false],
  ])('%s: %s', (url, allowed) => {
    expect(sameOriginScript(url, page)).toBe(allowed ? url : null);
  });
});
