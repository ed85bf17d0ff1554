'use client';

import { get, useFormState, type Control, type FieldValues, type Path } from 'react-hook-form';

/** Whether react-hook-form marked anything under a field: `true` itself, or inside its rows (`[{label: true}]`). */
const marked = (state: unknown): boolean =>
  state === true || (typeof state === 'object' && state !== null && Object.values(state).some(marked));

/**
 * A field's problem once it may be shown: after the person changed or left the field, or tried to submit; until
 * then undefined, so no form opens in red. Resolver errors already wait for this; a check a form makes itself as
 * you type (a rule across rows, say) goes through here.
 */
export function useShownError<T extends FieldValues>(
  control: Control<T>,
  name: Path<T>,
  message: string | undefined,
): string | undefined {
  const { isSubmitted, touchedFields, dirtyFields } = useFormState({ control, name });
  return isSubmitted || marked(get(touchedFields, name)) || marked(get(dirtyFields, name)) ? message : undefined;
}
