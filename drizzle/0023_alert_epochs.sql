-- Each project's alert epoch (issue 57), so an instance checks the preview's kept read of label values with one read.
CREATE TABLE "alert_epochs" (
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"epoch" uuid NOT NULL,
	CONSTRAINT "alert_epochs_pkey" PRIMARY KEY("organization_id","project_id")
);
--> statement-breakpoint
-- Kept by triggers, not by the app: every writer of `alerts` bumps it, an instance of the previous release during a
-- roll included. What changes the unresolved alerts at a moment still to come, or their order: an alert inserted or
-- deleted, its labels or start changed, its end moved earlier, or a new end for an alert that had ended (a new
-- firing) or was within a minute of its end by the writer's clock (`updated_at`; the minute covers instances' clocks
-- that disagree). An end pushed later for an alert well before it, Prometheus's resend, changes nothing a reader
-- kept: it kept the earliest end.
CREATE FUNCTION "alerts_epoch_bump"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- In key order, so concurrent statements that touch several projects take the rows' locks in one order.
    INSERT INTO "alert_epochs" ("organization_id", "project_id", "epoch")
      SELECT "organization_id", "project_id", gen_random_uuid() FROM "new_rows" GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT ("organization_id", "project_id") DO UPDATE SET "epoch" = excluded."epoch";
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "alert_epochs" ("organization_id", "project_id", "epoch")
      SELECT n."organization_id", n."project_id", gen_random_uuid()
      FROM "new_rows" n JOIN "old_rows" o USING ("organization_id", "project_id", "fingerprint")
      WHERE n."labels" IS DISTINCT FROM o."labels" OR n."starts_at" IS DISTINCT FROM o."starts_at"
        OR (n."ends_at" IS DISTINCT FROM o."ends_at"
          AND (n."ends_at" < o."ends_at" OR o."ends_at" <= n."updated_at" + interval '1 minute'))
      GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT ("organization_id", "project_id") DO UPDATE SET "epoch" = excluded."epoch";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "alert_epochs" ("organization_id", "project_id", "epoch")
      SELECT "organization_id", "project_id", gen_random_uuid() FROM "old_rows" GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT ("organization_id", "project_id") DO UPDATE SET "epoch" = excluded."epoch";
  ELSE
    UPDATE "alert_epochs" SET "epoch" = gen_random_uuid();
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "alerts_epoch_insert" AFTER INSERT ON "alerts"
  REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "alerts_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "alerts_epoch_update" AFTER UPDATE ON "alerts"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "alerts_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "alerts_epoch_delete" AFTER DELETE ON "alerts"
  REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "alerts_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "alerts_epoch_truncate" AFTER TRUNCATE ON "alerts"
  FOR EACH STATEMENT EXECUTE FUNCTION "alerts_epoch_bump"();
