import { defineOperation } from '../pipeline/operation';
import { leakReport, leakReportAnswer } from './schema';

export const reportLeaksOp = defineOperation({
  method: 'POST',
  path: '/v1/secret-scanning/reports',
  summary: 'Report leaked credentials (secret scanning partners)',
  description:
    'A JSON array of up to 1,000 `{token, type, url, source}`, signed with ECDSA P-256/SHA-256 over the raw body: ' +
    '`Secret-Scanning-Key-Identifier` and `Secret-Scanning-Signature` (base64 DER), or GitHub’s ' +
    '`GITHUB-PUBLIC-KEY-IDENTIFIER` / `GITHUB-PUBLIC-KEY-SIGNATURE`. Live credentials are revoked at once; ' +
    'every token is answered, in order.',
  tags: ['Secret scanning'],
  scope: 'none',
  credentials: 'signed',
  body: leakReport,
  success: { status: 200, description: 'One answer per reported token.', schema: leakReportAnswer },
});

export const secretScanningOperations = [reportLeaksOp];
