import './settings-first';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildAlertmanagerDocument } from '../lib/alertmanager/openapi';
import { buildOpenApiDocument } from '../lib/pipeline/openapi';
import { allOperations } from '../server/operations';
import { alertmanagerOperations } from '../lib/alertmanager/operations';

// Writes both generated documents into a folder, for the linters and the client generator (scripts/openapi-check.sh).
const out = process.argv[2];
if (!out) throw new Error('usage: tsx scripts/openapi.ts <folder>');
mkdirSync(out, { recursive: true });
const write = (name: string, doc: unknown) => writeFileSync(path.join(out, name), `${JSON.stringify(doc, null, 2)}\n`);
write('service.json', buildOpenApiDocument(allOperations));
write('alertmanager.json', buildAlertmanagerDocument(alertmanagerOperations));
