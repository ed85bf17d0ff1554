'use client';

import { newKeyHref, useConsoleOrigin, UseFromCode } from '@/components/console/use-from-code';
import { AMTOOL_SILENCE_COMMANDS } from '@/lib/alertmanager/amtool-permissions';
import { amtoolUrlOption, curlLine, fillPath, jsonText, shellWord, type CodeAct } from '@/lib/console/code-samples';
import type { Silence } from '@/lib/silences/schema';

const AMTOOL_UPDATE = AMTOOL_SILENCE_COMMANDS.find((c) => c.command === 'silence update')!;

/**
 * Changing this silence from code: `/v1`'s PATCH by its short id with the version this dialog loaded as If-Match, and
 * `amtool silence update` by its uuid (the Alertmanager API's ids), each changing its comment.
 */
export function SilenceCode({
  orgId,
  projectId,
  silence,
  etag,
  update,
}: {
  orgId: string;
  projectId: string;
  silence: Silence;
  etag: string;
  update: CodeAct;
}) {
  const origin = useConsoleOrigin();
  const url = `${origin}${fillPath(update.path, { orgId, projectId, silenceId: silence.slug })}`;
  const permissions = [...new Set([...update.permissions, ...AMTOOL_UPDATE.permissions])];
  return (
    <UseFromCode
      level={3}
      samples={[
        {
          id: 'code-silence-curl',
          title: 'Update it with curl',
          text: curlLine({
            method: update.method,
            url,
            headers: [`If-Match: ${etag}`, 'Content-Type: application/json'],
            body: jsonText({ comment: 'Changed with curl' }),
          }),
        },
        {
          id: 'code-silence-amtool',
          title: 'Update it with amtool',
          text: `amtool ${amtoolUrlOption({ origin, orgId, projectId })} \\\n  silence update ${silence.id} ${shellWord(
            '--comment=Changed with amtool',
          )}`,
        },
      ]}
      note={
        `If-Match names the version shown here (${etag}): after any change, reopen the silence for the new one, ` +
        'or the request answers 412. Both read the key from $SVC_API_KEY; amtool takes the silence by its uuid.'
      }
      needs={[
        { what: 'curl', permissions: update.permissions },
        { what: 'amtool', permissions: AMTOOL_UPDATE.permissions },
      ]}
      makeKey={newKeyHref(orgId, projectId, permissions)}
    />
  );
}
