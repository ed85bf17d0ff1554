'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';

/**
 * Asks before an editor with unsaved changes closes (Escape, Cancel, the overlay). The question replaces
 * the dialog's footer instead of opening a second dialog, so focus never leaves the editor: "Keep editing"
 * takes it, and Escape while asking keeps editing. Wire `requestClose` to every way of closing.
 */
export function useDiscardGuard(dirty: boolean, close: () => void) {
  const [asking, setAsking] = useState(false);
  const requestClose = () => {
    if (asking) return setAsking(false);
    if (dirty) return setAsking(true);
    close();
  };
  const prompt = asking ? (
    <div role="alertdialog" aria-labelledby="discard-title" className="flex w-full flex-wrap items-center gap-3">
      <p id="discard-title" className="mr-auto text-sm font-medium text-slate-900">
        Discard your unsaved changes?
      </p>
      <Button variant="secondary" autoFocus onClick={() => setAsking(false)}>
        Keep editing
      </Button>
      <Button variant="danger" onClick={close}>
        Discard changes
      </Button>
    </div>
  ) : null;
  return { requestClose, prompt };
}
