-- Alert notifications (alert.firing, alert.resolved): whether each alert was audible (unresolved, muted by no
-- active silence) when its notifications were last decided. Existing alerts start as not audible, so the first
-- resend of one still firing after the upgrade sends its alert.firing: webhooks learn what fires now.
-- The partial index finds the alerts the clock resolved whose state has not followed, for the 10 s job.
ALTER TABLE "alerts" ADD COLUMN "audible" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "alerts_notify_due_idx" ON "alerts" USING btree ("ends_at") WHERE "alerts"."audible" or "alerts"."firing_notified_at" is not null;