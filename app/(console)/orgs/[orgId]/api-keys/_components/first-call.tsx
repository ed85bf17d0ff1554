'use client';

import { useConsoleOrigin, UseFromCode } from '@/components/console/use-from-code';
import { curlLine, fillPath, type CodeAct } from '@/lib/console/code-samples';

/**
 * A new key's first request, with the key itself (the reveal shows it anyway): which key this is and what it may do
 * now, which every key may ask.
 */
export function FirstCall({ secret, act }: { secret: string; act: CodeAct }) {
  const origin = useConsoleOrigin();
  return (
    <UseFromCode
      level={3}
      samples={[
        {
          id: 'code-first-call',
          title: 'A first call with this key',
          text: curlLine({ method: act.method, url: `${origin}${fillPath(act.path, {})}`, key: secret }),
        },
      ]}
      note="It answers which key this is and what it may do now, in which projects."
      needs={[{ what: 'This call', permissions: act.permissions }]}
      scope=""
    />
  );
}
