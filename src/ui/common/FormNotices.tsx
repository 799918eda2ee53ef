// What a form says after an action: a passing status beside its buttons ("Saved “writer”.") and,
// under the form, an error banner the screen reader announces at once. Nothing when empty.

interface NoticeProps {
  text: string | undefined | null | false;
}

export function FormStatus({ text, label }: NoticeProps & { label?: string }) {
  if (!text) return null;
  return (
    <span class="flow-status" role="status" aria-label={label}>
      {text}
    </span>
  );
}

export function ErrorBanner({ text }: NoticeProps) {
  if (!text) return null;
  return (
    <p class="banner error" role="alert">
      {text}
    </p>
  );
}
