import { useEffect, useState } from 'preact/hooks';
import type { ModelWait } from '../../core/model-wait.ts';

/** Why the model waits: the provider's own situation, in the words its errors use. */
function reasonOf(wait: ModelWait): string {
  switch (wait.reason) {
    case 'rate-limited':
      return `${wait.provider} is limiting requests (HTTP 429).`;
    case 'unavailable':
      return `${wait.provider} is unavailable (HTTP ${wait.status ?? 503}).`;
    case 'unreachable':
      return `Could not reach ${wait.provider}.`;
  }
}

/**
 * The model waits before it tries its provider again: why, a countdown to the next attempt, which
 * attempt it is, and the longest the app waits (Stop, or Escape, gives up at once).
 */
export function ModelWaitNote({ wait }: { wait: ModelWait }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [wait]);
  const seconds = Math.max(0, Math.ceil((wait.until - now) / 1000));
  const cap = Math.round(wait.maxDelayMs / 1000);
  return (
    <li class="thinking model-wait">
      <span role="status">
        {reasonOf(wait)} Trying again{wait.asked ? ', as it asked,' : ''}
      </span>{' '}
      <span role="timer">in {seconds} s</span>{' '}
      <span>
        (attempt {wait.attempt} of {wait.attempts}; the app waits at most {cap} s between attempts).
        Stop gives up.
      </span>
    </li>
  );
}
