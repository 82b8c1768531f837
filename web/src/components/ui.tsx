// Small building blocks: labelled fields, buttons, messages, dialogs.
import {
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useRef,
} from 'react';
import { ApiError } from '../lib/api';
import { keepKeyboardOnPage } from '../lib/focus';
import { useSession } from '../lib/session';

export function Button({
  variant = 'secondary',
  busy,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  busy?: boolean;
}) {
  return (
    <button
      type="button"
      className={`btn btn-${variant}`}
      aria-busy={busy || undefined}
      {...rest}
      disabled={rest.disabled || busy}
    >
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

/** A form's submit button, with "Saved" announced beside it after a save. */
export function SaveRow({
  label,
  busy,
  saved,
  disabled,
}: {
  label: string;
  busy?: boolean | undefined;
  saved?: boolean | undefined;
  disabled?: boolean | undefined;
}) {
  return (
    <div className="row">
      <Button type="submit" variant="primary" busy={busy} disabled={disabled}>
        {label}
      </Button>
      {saved && (
        <span className="ok" role="status">
          Saved
        </span>
      )}
    </div>
  );
}

interface FieldProps {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

export function TextField({
  label,
  error,
  hint,
  ...rest
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-err` : undefined}
        {...rest}
      />
      {hint && !error && <div className="hint">{hint}</div>}
      {error && (
        <div className="field-error" id={`${id}-err`}>
          {error}
        </div>
      )}
    </div>
  );
}

export function TextArea({
  label,
  error,
  ...rest
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={error ? true : undefined} {...rest} />
      {error && <div className="field-error">{error}</div>}
    </div>
  );
}

export function SelectField({
  label,
  error,
  children,
  ...rest
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} {...rest}>
        {children}
      </select>
      {error && <div className="field-error">{error}</div>}
    </div>
  );
}

/** An error next to the thing that caused it. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="error-message" role="alert">
      {message}
    </div>
  );
}

export const fieldErrors = (e: unknown): Record<string, string> => (e instanceof ApiError ? e.fields : {});

/** A form's error, unless its fields show it: any field's error, or one of `shownAt` when the form has only those. */
export function FormError({ error, shownAt }: { error: unknown; shownAt?: string[] }) {
  const fields = fieldErrors(error);
  const atAField = shownAt ? shownAt.some((f) => f in fields) : Object.keys(fields).length > 0;
  return atAField ? null : <ErrorMessage error={error} />;
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}…
    </div>
  );
}

export function Dialog({
  title,
  onClose,
  children,
  wide,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const previous = document.activeElement as HTMLElement | null;
    d.showModal();
    // showModal focuses the first focusable element, the close button; typing belongs in the first field.
    d.querySelector<HTMLElement>('[data-autofocus], input:not([type=hidden]), textarea, select')?.focus();
    // Back to what had the keyboard; if that is gone (its row left the list), to the page.
    return () => (previous?.isConnected ? previous.focus() : keepKeyboardOnPage());
  }, []);
  return (
    <dialog
      ref={ref}
      className={`dialog${wide ? ' dialog-wide' : ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onMouseDown={(e) => {
        if (e.target === ref.current) onClose();
      }}
    >
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}

export function Kbd({ children }: { children: ReactNode }) {
  return <kbd className="kbd">{children}</kbd>;
}

export function copyText(text: string) {
  return navigator.clipboard?.writeText(text).catch(() => undefined);
}

/** Names the browser tab after the page: "Issues · Acme". */
export function usePageTitle(title: string | undefined) {
  const workspace = useSession().config?.workspace.name ?? 'Trackway';
  useEffect(() => {
    document.title = title ? `${title} · ${workspace}` : workspace;
  }, [title, workspace]);
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <header className="page-header">
      {/* Focusable by script: a new page puts the keyboard here (lib/focus.ts). */}
      <h1 tabIndex={-1}>{title}</h1>
      <div className="page-actions">{children}</div>
    </header>
  );
}
