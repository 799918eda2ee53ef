// The formats Share offers, as its menu and its range form name them.

export const EXPORT_FORMATS = [
  { format: 'html', label: 'Page (HTML)' },
  { format: 'markdown', label: 'Markdown' },
  { format: 'json', label: 'Session file (JSON)' },
] as const;
