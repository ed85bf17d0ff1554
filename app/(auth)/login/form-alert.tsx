/**
 * A sign-in step's message about the whole form (a refused password, a passkey that did not work): always in the
 * page, hidden while empty, so screen readers announce it the moment it is filled.
 */
export function FormAlert({ message }: { message: string | null }) {
  return (
    <div
      role="alert"
      aria-live="assertive"
      className={message ? 'mb-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800' : 'sr-only'}
    >
      {message}
    </div>
  );
}
