// axe-core, injected into the page by the browser tests: the accessibility rules the field uses
// (WCAG 2.x A and AA), run on what the page shows now.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  /** The first few elements, as CSS selectors, with what axe says of each. */
  nodes: string[];
}

/** The serious and critical violations on the page as it is. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated by the test (as devtools would), not added as an inline script: the app's
  // Content-Security-Policy blocks those, as it should.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${source}\n;true`);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<any> } }).axe;
    const result = await axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    });
    return result.violations.map((violation: any) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes
        .slice(0, 4)
        .map((node: any) => `${node.target.join(' ')}: ${node.failureSummary}`),
    }));
  });
  return (found as Violation[]).filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
}
