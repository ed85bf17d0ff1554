'use client';

import { whenOpened } from './opened-once';

/**
 * A yes/no confirmation; focus starts on Cancel. `onConfirm` does the work and resolves true when the dialog
 * may close (false keeps it open; the work announces its own failure). Focus then returns to the opener, or
 * to the page heading when `removesOpener` says the confirmed action takes the opener's row away.
 *
 * Radix's dialog (its focus scope, dismissable layer, portal and scroll lock) is a tenth of a list page's script,
 * and a confirmation opens only when someone asks to delete or revoke: it loads once a person is on the page (the
 * pointer moves, or focus), not with the page, so it is there when Revoke is pressed.
 */
export const ConfirmDialog = whenOpened(
  () => import('./confirm-dialog-radix'),
  (m) => m.RadixConfirmDialog,
  (props) => props.open,
  { early: true },
);
