import type { Metadata } from 'next';
import redoc from 'redoc/package.json';
import { BackToConsoleBar } from '@/components/console/back-to-console-bar';
import { API_REFERENCE_PATH } from '@/lib/api-reference';
import { ApiReference } from './_components/api-reference';

export const metadata: Metadata = { title: 'API reference' };

const link = 'font-semibold text-indigo-700 underline hover:text-indigo-600';

/**
 * The `/v1` API's reference, rendered in the browser from `/v1/openapi.json` by Redoc. Its script (1.1 MB, 320 kB
 * sent gzipped; scripts/vendor-redoc.mjs puts it in public/) loads on this page alone; docs/console.md keeps the figure.
 */
export default function ApiReferencePage() {
  return (
    <div className="min-h-screen">
      <BackToConsoleBar />
      <main id="main" aria-labelledby="api-reference-title">
        <div className="px-4 py-6 sm:px-6">
          <h1
            id="api-reference-title"
            tabIndex={-1}
            className="text-2xl font-semibold tracking-tight text-slate-900 focus:outline-none"
          >
            API reference
          </h1>
          <p className="mt-1 max-w-3xl text-sm text-slate-600">
            Every <span className="font-mono">/v1</span> operation, from{' '}
            <a href="/v1/openapi.json" className={`${link} font-mono`}>
              /v1/openapi.json
            </a>
            . Send a key as <span className="font-mono">Authorization: Bearer svc_…</span>; the Alertmanager API that
            Prometheus and amtool use is in{' '}
            <a href="/v1/openapi/alertmanager.json" className={`${link} font-mono`}>
              /v1/openapi/alertmanager.json
            </a>
            .
          </p>
        </div>
        <ApiReference specUrl="/v1/openapi.json" scriptSrc={`${API_REFERENCE_PATH}/redoc-${redoc.version}.js`} />
      </main>
    </div>
  );
}
