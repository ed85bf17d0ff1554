import { Fragment } from 'react';

/**
 * An email address that wraps only where it reads well: after its @ and before each dot (and after a hyphen, as
 * any text does), never inside a word, even in a table that lets its other cells break anywhere. A part longer
 * than its column still breaks rather than spill out of it.
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?<=@)|(?=\.)/);
  return (
    <span className="[overflow-wrap:break-word]">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
