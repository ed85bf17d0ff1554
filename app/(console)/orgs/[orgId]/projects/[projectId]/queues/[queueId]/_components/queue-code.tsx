'use client';

import { newKeyHref, useConsoleOrigin, UseFromCode } from '@/components/console/use-from-code';
import { API_KEY_VARIABLE, curlLine, fillPath, jsonText, shellWord, type CodeAct } from '@/lib/console/code-samples';

const EXAMPLE = { order: 7 };

/**
 * Publishing to this queue from code: JSON, a CloudEvent in structured mode, the `svc` line, and the URL alone for a
 * CloudEvents SDK's emitter, each naming the queue by its short id.
 */
export function QueueCode({
  orgId,
  projectId,
  queueSlug,
  publish,
  readQueue,
}: {
  orgId: string;
  projectId: string;
  queueSlug: string;
  publish: CodeAct;
  /** `svc` reads the queue before it publishes. */
  readQueue: CodeAct;
}) {
  const origin = useConsoleOrigin();
  const forSvc = [...new Set([...publish.permissions, ...readQueue.permissions])];
  const url = `${origin}${fillPath(publish.path, { orgId, projectId, queueId: queueSlug })}`;
  const event = {
    specversion: '1.0',
    id: 'order-7',
    source: '/orders',
    type: 'com.example.order.created',
    datacontenttype: 'application/json',
    data: EXAMPLE,
  };
  return (
    <UseFromCode
      samples={[
        {
          id: 'code-publish-json',
          title: 'Publish a message (JSON)',
          text: curlLine({
            method: publish.method,
            url,
            headers: ['Content-Type: application/json'],
            body: jsonText({ messages: [{ body: EXAMPLE }] }),
          }),
        },
        {
          id: 'code-publish-cloudevent',
          title: 'Publish a CloudEvent (structured mode)',
          text: curlLine({
            method: publish.method,
            url,
            headers: ['Content-Type: application/cloudevents+json'],
            body: jsonText(event),
          }),
        },
        {
          id: 'code-publish-svc',
          title: 'Publish with the svc CLI',
          text:
            `SVC_URL=${shellWord(origin)} svc queues publish ${queueSlug} --org ${orgId} --project ${projectId} ` +
            `--data ${shellWord(jsonText(EXAMPLE))}`,
        },
        {
          id: 'code-publish-url',
          title: 'The URL to publish to, for a CloudEvents SDK (binary or structured mode)',
          text: url,
        },
      ]}
      note={
        `Each request reads the key from $${API_KEY_VARIABLE}. CloudEvents also go in binary mode (ce-* headers, ` +
        'the data as the body) and as a batch (application/cloudevents-batch+json).'
      }
      needs={[
        { what: 'curl', permissions: publish.permissions },
        { what: 'svc, which reads the queue first', permissions: forSvc },
      ]}
      makeKey={newKeyHref(orgId, projectId, forSvc)}
    />
  );
}
