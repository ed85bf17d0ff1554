-- Batches with refused alerts (issue 57: "the project's Alerts page says so"), kept ALERT_RETENTION_SECONDS.
CREATE TABLE "alert_refusals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"refused" integer NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_refusals" ADD CONSTRAINT "alert_refusals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_refusals" ADD CONSTRAINT "alert_refusals_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_refusals_project_idx" ON "alert_refusals" USING btree ("organization_id","project_id","at");