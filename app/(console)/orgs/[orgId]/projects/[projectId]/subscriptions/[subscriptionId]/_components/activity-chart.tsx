'use client';

import { useZone } from '@/components/console/time';
import { clockMinute } from '@/lib/format/time';
import { count } from '../../../queues/_components/queue-words';
import { scaleTop, totals, type Minute } from './chart-scale';

const SLOT = 10;
const HEIGHT = 100;
const SERIES = [
  { key: 'delivered', label: 'Delivered', fill: 'fill-green-600', swatch: 'bg-green-600' },
  { key: 'failed', label: 'Failed', fill: 'fill-red-600', swatch: 'bg-red-600' },
  { key: 'expired', label: 'Expired', fill: 'fill-amber-500', swatch: 'bg-amber-500' },
] as const;

/**
 * Delivered, failed and expired messages per minute over the last hour, as stacked bars in plain SVG (no chart
 * library: this page's only chart). Screen readers get its totals as its name and every minute in the table below.
 */
export function ActivityChart({ minutes }: { minutes: readonly Minute[] }) {
  const zone = useZone();
  const top = scaleTop(Math.max(0, ...minutes.map((m) => m.delivered + m.failed + m.expired)));
  const sum = totals(minutes);
  const y = (value: number) => (value / top) * HEIGHT;
  const first = minutes[0]?.at;
  const middle = minutes[Math.floor(minutes.length / 2)]?.at;
  return (
    <figure className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <figcaption className="mb-3 flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-700">
        {SERIES.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1.5">
            <span aria-hidden="true" className={`inline-block size-3 rounded-sm ${s.swatch}`} />
            {s.label} <span className="font-semibold tabular-nums text-slate-900">{count(sum[s.key])}</span>
          </span>
        ))}
      </figcaption>
      <div className="flex gap-2">
        {/* Each label centred on its grid line. */}
        <div aria-hidden="true" className="relative h-40 w-10 shrink-0 text-right text-xs tabular-nums text-slate-600">
          <span className="absolute right-0 top-0 -translate-y-1/2">{count(top)}</span>
          <span className="absolute right-0 top-1/2 -translate-y-1/2">{count(top / 2)}</span>
          <span className="absolute bottom-0 right-0 translate-y-1/2">0</span>
        </div>
        <div className="relative h-40 min-w-0 flex-1">
          <svg
            role="img"
            aria-label={`Messages per minute over the last hour: ${sum.delivered} delivered, ${sum.failed} failed, ${sum.expired} expired.`}
            viewBox={`0 0 ${minutes.length * SLOT} ${HEIGHT}`}
            preserveAspectRatio="none"
            className="absolute inset-0 size-full overflow-visible"
          >
            {[0, 0.5, 1].map((f) => (
              <line
                key={f}
                x1={0}
                x2={minutes.length * SLOT}
                y1={HEIGHT - f * HEIGHT}
                y2={HEIGHT - f * HEIGHT}
                className="stroke-slate-200"
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {minutes.map((m, i) => {
              let base = HEIGHT;
              return (
                <g key={m.at}>
                  <title>{`${clockMinute(m.at, zone)}: ${m.delivered} delivered, ${m.failed} failed, ${m.expired} expired`}</title>
                  {/* A transparent column, so the whole minute shows its figures on hover. */}
                  <rect x={i * SLOT} y={0} width={SLOT} height={HEIGHT} fill="transparent" />
                  {SERIES.map((s) => {
                    const h = y(m[s.key]);
                    base -= h;
                    return h > 0 ? (
                      <rect key={s.key} x={i * SLOT + 1.5} y={base} width={SLOT - 3} height={h} className={s.fill} />
                    ) : null;
                  })}
                </g>
              );
            })}
          </svg>
        </div>
      </div>
      <div aria-hidden="true" className="ml-12 mt-1 flex justify-between text-xs tabular-nums text-slate-600">
        <span>{first ? clockMinute(first, zone) : ''}</span>
        <span>{middle ? clockMinute(middle, zone) : ''}</span>
        <span>now</span>
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-semibold text-indigo-700">Each minute as a table</summary>
        <div
          className="mt-2 max-h-72 overflow-y-auto rounded-md ring-1 ring-slate-200"
          tabIndex={0}
          role="region"
          aria-label="Messages per minute"
        >
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Messages per minute over the last hour, oldest first</caption>
            <thead className="sticky top-0 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Minute
                </th>
                {SERIES.map((s) => (
                  <th key={s.key} scope="col" className="px-3 py-2 text-right">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {minutes.map((m) => (
                <tr key={m.at}>
                  <th scope="row" className="px-3 py-1.5 font-normal tabular-nums text-slate-700">
                    <time dateTime={m.at}>{clockMinute(m.at, zone)}</time>
                  </th>
                  {SERIES.map((s) => (
                    <td key={s.key} className="px-3 py-1.5 text-right tabular-nums text-slate-800">
                      {count(m[s.key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
