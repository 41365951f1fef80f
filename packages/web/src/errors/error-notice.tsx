import { describeError } from './describe-error.js';

interface ErrorNoticeProps {
  readonly error: unknown;
  /** What was being done, e.g. "Loading the depth": the message alone may not say. */
  readonly context: string;
  /** Set when older data is still on screen, so the reader knows how old it is. */
  readonly staleSince?: number | undefined;
}

/**
 * A failed request, said where it happened, without hiding what is still shown. Renders nothing
 * without an error, so callers can always place it.
 */
export function ErrorNotice({ error, context, staleSince }: ErrorNoticeProps) {
  if (error === undefined) return null;
  const { message, code, requestId } = describeError(error);
  return (
    <div class="error-notice" role="alert" data-testid="api-error" data-code={code}>
      <p>
        <strong>{context} failed:</strong> {message} <code class="error-code">{code}</code>
      </p>
      {requestId === undefined ? null : <p class="muted">Request id {requestId}</p>}
      {staleSince === undefined ? null : <p class="muted">Showing the data of {new Date(staleSince).toLocaleTimeString()}.</p>}
    </div>
  );
}
