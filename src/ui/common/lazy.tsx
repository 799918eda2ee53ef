// A component whose code is loaded the first time it is shown (a dynamic import: its own chunk,
// precached by the service worker like every other, so it opens offline too). Until then, a
// short "Loading…", or the given fallback (null: nothing, for a card or a note that may simply
// come a moment later). Views the page does not show at first stay out of its first chunk.

import type { ComponentType, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const LOADING = (
  <p class="hint" role="status">
    Loading…
  </p>
);

export function lazy<P extends object>(
  load: () => Promise<ComponentType<P>>,
  { fallback = LOADING }: { fallback?: JSX.Element | null } = {},
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  const start = () =>
    (loading ??= load().then((component) => {
      loaded = component;
    }));
  return function Lazy(props: P) {
    const [, setReady] = useState(false);
    // Whether the code came before this effect ran or after, the component draws once it has:
    // a render that showed "Loading…" is never left standing.
    useEffect(() => {
      let live = true;
      void start().then(() => live && setReady(true));
      return () => {
        live = false;
      };
    }, []);
    if (!loaded) {
      void start();
      return fallback;
    }
    const Component = loaded;
    return <Component {...props} />;
  };
}
