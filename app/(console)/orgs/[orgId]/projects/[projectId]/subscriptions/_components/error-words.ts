// A delivery's failure in words a person reads, without React: the subscription pages and the tables share it.

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** What an answered status means for the sender, in a clause. */
function statusMeaning(status: number): string {
  if (status === 429) return 'it asked for fewer requests; the messages are retried later';
  if (status === 401 || status === 403)
    return 'it refused this sender (check that it accepts this subscription’s signature)';
  if (status === 404) return 'nothing is at that address (check the URL)';
  if (status >= 500) return 'it failed on its side, or is down or overloaded';
  if (status >= 400) return 'it refused the request';
  if (status >= 300 && status < 400) return 'redirects are not followed (use the final URL)';
  return 'it did not accept the messages';
}

/** "503 Service Unavailable", or the bare number for a status without a common name. */
export function statusText(status: number): string {
  return REASONS[status] ? `${status} ${REASONS[status]}` : String(status);
}

/**
 * One sentence for a delivery error, from its `class` (PRODUCT.md "Status") and HTTP `status`; the server's own
 * message stays beside it for the details. An unknown class gives the server's message alone.
 */
export function errorInWords(error: { class: string; status: number; message: string }): string {
  switch (error.class) {
    case 'timeout':
      return 'The target did not answer within the subscription’s timeout, so the delivery was abandoned.';
    case 'connection':
      return 'Could not connect to the target: nothing is listening there, or the connection was refused or cut.';
    case 'tls':
      return 'The secure connection to the target failed: its certificate or TLS setup was not accepted.';
    case 'blocked_address':
      return 'The target’s address is a private, loopback or link-local one, which deliveries may not reach.';
    case 'invalid_response':
      return 'The target answered success, but its list of failed messages could not be read.';
    case 'http':
      if (error.status === 410) return 'The target answered 410 Gone, so the subscription was paused.';
      if (error.status >= 200 && error.status < 300) return error.message;
      return `The target answered ${statusText(error.status)}: ${statusMeaning(error.status)}.`;
    default:
      return error.message;
  }
}
