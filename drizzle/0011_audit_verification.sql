-- A verified prefix (audit_checkpoints) is trusted only while nobody changed a stored event: these triggers reset
-- it (seq 0, generation + 1) for each organization whose events are updated, deleted other than by retention, or
-- truncated, so the next quick verification re-hashes from the retention checkpoint and finds the change. A
-- tamperer who disables triggers is still found by the full re-verification job (audit_verifications).
ALTER TABLE "audit_checkpoints" ADD COLUMN "generation" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE FUNCTION "audit_checkpoints_distrust"("orgs" uuid[]) RETURNS void
  LANGUAGE sql
  AS $$
    INSERT INTO "audit_checkpoints" ("organization_id", "seq", "hash", "generation")
      SELECT DISTINCT o, 0, '', 1 FROM unnest("orgs") AS o
      ON CONFLICT ("organization_id") DO UPDATE
        SET "seq" = 0, "hash" = '', "generation" = "audit_checkpoints"."generation" + 1, "verified_at" = now();
  $$;--> statement-breakpoint
CREATE FUNCTION "audit_events_updated"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM "audit_checkpoints_distrust"(ARRAY(
    SELECT "organization_id" FROM "old_rows" UNION SELECT "organization_id" FROM "new_rows"));
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Retention moves audit_chain_heads.pruned_seq first, then deletes up to it (lib/audit/retention.ts): a delete
-- at or behind that checkpoint is retention; any other is a change to the verified chain.
CREATE FUNCTION "audit_events_deleted"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM "audit_checkpoints_distrust"(ARRAY(
    SELECT DISTINCT g."organization_id" FROM "old_rows" g
      LEFT JOIN "audit_chain_heads" h ON h."organization_id" = g."organization_id"
      WHERE h."organization_id" IS NULL OR g."seq" > h."pruned_seq"));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "audit_events_truncated"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE "audit_checkpoints" SET "seq" = 0, "hash" = '', "generation" = "generation" + 1, "verified_at" = now();
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_events_updated" AFTER UPDATE ON "audit_events"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_updated"();--> statement-breakpoint
CREATE TRIGGER "audit_events_deleted" AFTER DELETE ON "audit_events"
  REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_deleted"();--> statement-breakpoint
CREATE TRIGGER "audit_events_truncated" AFTER TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_truncated"();--> statement-breakpoint
CREATE TABLE "audit_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"state" text NOT NULL,
	"verified" bigint DEFAULT 0 NOT NULL,
	"total" bigint NOT NULL,
	"first_broken_seq" bigint,
	"error" text,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"lease_until" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_verifications" ADD CONSTRAINT "audit_verifications_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_verifications_org_started_idx" ON "audit_verifications" USING btree ("organization_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_verifications_one_running_idx" ON "audit_verifications" USING btree ("organization_id") WHERE "audit_verifications"."state" = 'running';
