'use client';

import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** The bar chart of a key's daily requests: its own module, so recharts loads when the usage dialog opens. */
export function UsageChart({ days }: { days: { date: string; requests: number }[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={days} margin={{ top: 4, right: 4, bottom: 4, left: 0 }}>
        <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} fontSize={11} interval={6} />
        <YAxis allowDecimals={false} fontSize={11} width={36} />
        <Tooltip formatter={(v) => [String(v), 'Requests']} />
        <Bar dataKey="requests" fill="#4f46e5" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
