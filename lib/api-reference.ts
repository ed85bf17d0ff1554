/** Where the console shows the `/v1` API's reference: the navigation links it, and a 404 for a path names it. */
export const API_REFERENCE_PATH = '/api-reference';
