// The page's bounded previews of long texts and values: they live in src/core/value-preview.ts,
// since the worker previews long state values with the same code before it sends an opening.

export * from '../../core/value-preview.ts';
