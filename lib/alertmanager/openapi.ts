import { apiKeyScheme, buildDocument, oauthScheme, type Family } from '../pipeline/openapi';
import type { Operation } from '../pipeline/operation';
import { amError } from './model';

/** The Alertmanager API's own document: its error body is a JSON string, and Basic carries a key for Grafana. */
const ALERTMANAGER: Family = {
  info: {
    title: 'Alertmanager API',
    description:
      "Alertmanager 0.25's v2 silence API, one per project, for amtool, Grafana and karma. Errors answer a JSON string, as Alertmanager does; no cookie is accepted.",
  },
  errorSchema: amError,
  schemesOf: { session: [], api_key: ['apiKey', 'basicApiKey'], oauth: ['oauth'] },
  securitySchemes: {
    apiKey: apiKeyScheme,
    oauth: oauthScheme,
    basicApiKey: {
      type: 'http',
      scheme: 'basic',
      description: "HTTP Basic with an API key as the password and any user name (Grafana's data source).",
    },
  },
};

export const buildAlertmanagerDocument = (operations: Operation[]) => buildDocument(operations, ALERTMANAGER);
