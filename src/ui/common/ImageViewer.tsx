// An image in the conversation (an attachment, an artifact) as a thumbnail that opens large in a
// modal dialog on click: Escape, Close or a click outside the image closes it, and the focus goes
// back to the thumbnail. The alt text is the image's name, in both places. The native <dialog>
// gives the focus trap, the inert page behind and Escape.

import { useRef } from 'preact/hooks';

interface Props {
  src: string | undefined;
  /** What the image is (its file name): the alt text and the dialog's name. */
  alt: string;
  /** The file name Download saves it as (absent: no Download). */
  filename?: string;
}

export function ImageViewer({ src, alt, filename }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const close = () => dialog.current?.close();
  if (!src) return <span class="file-chip">{alt}</span>;
  return (
    <>
      <button
        ref={opener}
        type="button"
        class="image-open"
        title={`Open ${alt} large`}
        onClick={() => dialog.current?.showModal()}
      >
        <img src={src} alt={alt} loading="lazy" />
      </button>
      <dialog
        ref={dialog}
        class="image-viewer"
        aria-label={alt}
        onClose={() => opener.current?.focus()}
        // A click on the backdrop lands on the dialog itself, not on what it holds.
        onClick={(event) => event.target === event.currentTarget && close()}
      >
        <img src={src} alt={alt} />
        <div class="image-viewer-bar">
          <span class="image-viewer-name">{alt}</span>
          {filename && (
            <a href={src} download={filename}>
              Download
            </a>
          )}
          <button type="button" onClick={close}>
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}
