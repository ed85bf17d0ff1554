import { auditSource } from '../audit/source';
import { json, route } from '../pipeline/route';
import { pauseSubscriptionOp, resumeSubscriptionOp } from './operations';
import { setSubscriptionState } from './service';

/** `POST …/pause` and `…/resume`: one handler, the state each one asks for. */
export function subscriptionStateRoute(verb: 'pause' | 'resume') {
  const operation = verb === 'pause' ? pauseSubscriptionOp : resumeSubscriptionOp;
  return route(operation, async (ctx) =>
    json(
      await setSubscriptionState(
        { organizationId: ctx.params.orgId, projectId: ctx.params.projectId },
        ctx.params.subscriptionId,
        verb === 'pause' ? 'paused' : 'active',
        auditSource(ctx),
      ),
    ),
  );
}
