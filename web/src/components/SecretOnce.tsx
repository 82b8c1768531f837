// A secret the server shows once (an API key, a SCIM token, a webhook's signing
// secret): shown with a copy button until the person says they are done.

import { type ReactNode, useState } from 'react';
import { Button, copyText } from './ui';

export function SecretOnce({
  label,
  children,
  secret,
  copyLabel,
  testId,
  onDone,
}: {
  /** The region's accessible name, e.g. "New API key". */
  label: string;
  /** What the secret is, and that it will not be shown again. */
  children: ReactNode;
  secret: string;
  /** e.g. "Copy key"; reads "Copied" once copied. */
  copyLabel: string;
  testId?: string;
  onDone(): void;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="secret-box" aria-label={label}>
      <p>{children}</p>
      <div className="row">
        <code className="secret" data-testid={testId}>
          {secret}
        </code>
        <Button
          onClick={() => {
            void copyText(secret);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : copyLabel}
        </Button>
        {/* Not the ghost variant: on the secret box's background it lacks contrast. */}
        <Button onClick={onDone}>Done</Button>
      </div>
    </section>
  );
}
