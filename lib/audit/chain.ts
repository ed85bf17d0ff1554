import { createHash } from 'node:crypto';
import { canonicalJson, canonicalJsonAround } from './canonical';
import type { AuditEvent } from '../db/audit-types';

/** The hash of the organization's first event is chained to this. */
export const GENESIS_HASH = '';

/** What the hash covers: the event as served, plus its organization (an event cannot move between chains). */
export type HashedEvent = AuditEvent & { organizationId: string };

/** `hash = SHA-256(previous hash ‖ canonical JSON of the event)`, hex; the previous hash as its hex text. */
export function chainHash(previousHash: string, event: HashedEvent): string {
  return createHash('sha256')
    .update(previousHash + canonicalJson(event), 'utf8')
    .digest('hex');
}

/** The canonical JSON of an event whose seq the database assigns: the text before and after the number. */
export function eventJsonAroundSeq(event: Omit<HashedEvent, 'seq'>): [string, string] {
  return canonicalJsonAround(event, 'seq');
}

export type ChainCheckpoint = { seq: number; hash: string };
export type ChainVerification = { verified: number; firstBrokenSeq: number | null };

/**
 * Walks a chain in seq order from a checkpoint (seq 0 and the genesis hash when nothing was pruned).
 * Feed it batches with `check`; `result(head)` also reports events missing at the end (a deleted tail).
 */
export function chainVerifier(start: ChainCheckpoint) {
  let previous = start.hash;
  let expectedSeq = start.seq + 1;
  let verified = 0;
  let broken: number | null = null;
  return {
    /** Checks the next stored events; returns false once the chain is broken (the caller may stop reading). */
    check(events: Iterable<HashedEvent & { hash: string }>): boolean {
      for (const event of events) {
        if (broken !== null) return false;
        const { hash, ...body } = event;
        if (event.seq !== expectedSeq || chainHash(previous, body) !== hash) {
          broken = Math.min(event.seq, expectedSeq);
          return false;
        }
        previous = hash;
        expectedSeq += 1;
        verified += 1;
      }
      return broken === null;
    },
    result(head: ChainCheckpoint | null): ChainVerification {
      if (broken === null && head && (head.seq !== expectedSeq - 1 || head.hash !== previous))
        broken = Math.min(expectedSeq, head.seq);
      return { verified, firstBrokenSeq: broken };
    },
  };
}
