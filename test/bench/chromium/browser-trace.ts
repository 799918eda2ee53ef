// A Chromium trace of a page's browser, through the DevTools protocol: started, then stopped by
// the returned function, which gives every event collected meanwhile (in ReportEvents mode).

import type { Page } from 'playwright-core';

/** A trace event, with the fields the benches read (`args` as each category fills it). */
export interface TraceEvent<Args = { name?: string }> {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  id?: string;
  args?: Args;
}

/** Starts tracing `categories`; the returned function stops and gives the trace's events. */
export async function traceBrowser<Event>(
  page: Page,
  categories: readonly string[],
): Promise<() => Promise<Event[]>> {
  const cdp = await page.context().newCDPSession(page);
  const events: Event[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as Event[])));
  const complete = new Promise<void>((resolve) =>
    cdp.once('Tracing.tracingComplete', () => resolve()),
  );
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: [...categories] },
    transferMode: 'ReportEvents',
  });
  return async () => {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
    return events;
  };
}
