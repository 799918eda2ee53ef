// Whether the app is dark (Settings → Theme, or the system's choice): xyflow draws its own parts
// (controls, minimap, background) in the colour mode it is told.

import { useEffect, useState } from 'preact/hooks';

export function useDarkMode(): boolean {
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(isDark()));
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme'],
    });
    return () => observer.disconnect();
  }, []);
  return dark;
}

function isDark(): boolean {
  return document.documentElement.dataset.theme === 'dark';
}
