// No zod here: the console's subscription list imports this, and the schemas stay out of its script.
export type KnownTarget =
  | { kind: 'https'; url: string; timeoutSeconds: number }
  | { kind: 'workflow'; workflowId: string }
  | { kind: 'unknown' };

/** The target as a client understands it; a kind (or shape) this version does not know is "unknown" and left alone. */
export function knownTarget(target: { kind: string }): KnownTarget {
  const fields = target as Record<string, unknown>;
  if (target.kind === 'https' && typeof fields.url === 'string' && typeof fields.timeoutSeconds === 'number') {
    return { kind: 'https', url: fields.url, timeoutSeconds: fields.timeoutSeconds };
  }
  if (target.kind === 'workflow' && typeof fields.workflowId === 'string')
    return { kind: 'workflow', workflowId: fields.workflowId };
  return { kind: 'unknown' };
}
