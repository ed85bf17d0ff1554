/** Bytes an alert holds at most: label and annotation names and values and its generator URL. */
export const MAX_ALERT_BYTES = 16 * 1024;
